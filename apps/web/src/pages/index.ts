import type { PageName } from '@werkwissen/shared';
import { type ComponentType, lazy } from 'react';
import { loadSignedInTexts } from '../i18n/i18n.ts';

/**
 * Every page the route manifest can name (`PAGE_NAMES`), each loaded lazily in its own chunk. Keyed by `PageName`, so
 * a page missing here or a misspelt name fails the type-check.
 */
/** A blank-layout page that shows texts of the signed-in part (the public chat's answers, citations, feedback). */
const withSignedInTexts = <T>(page: Promise<T>) =>
  Promise.all([page, loadSignedInTexts()]).then(([loaded]) => loaded);

export const PAGES: Record<PageName, ComponentType> = {
  Login: lazy(() => import('./auth/login-page.tsx')),
  Register: lazy(() => import('./auth/register-page.tsx')),
  SetPassword: lazy(() => import('./auth/set-password-page.tsx')),
  ForgotPassword: lazy(() => import('./auth/forgot-password-page.tsx')),
  ResetPassword: lazy(() => import('./auth/reset-password-page.tsx')),
  Verify: lazy(() => import('./auth/verify-page.tsx')),
  ConfirmEmail: lazy(() => import('./auth/confirm-email-page.tsx')),
  Redirecting: lazy(() => import('./auth/redirecting-page.tsx')),
  TokenError: lazy(() => import('./misc/token-error-page.tsx')),
  NotAuthorized: lazy(() => import('./misc/not-authorized-page.tsx')),
  NotFound: lazy(() => import('./misc/not-found-page.tsx')),
  ServerError: lazy(() => import('./misc/server-error-page.tsx')),
  ComingSoon: lazy(() => import('./misc/coming-soon-page.tsx')),
  UnderMaintenance: lazy(() => import('./misc/maintenance-page.tsx')),
  Dashboard: lazy(() => import('./dashboard/dashboard-page.tsx')),
  AdminDashboard: lazy(() => import('./dashboard/admin-dashboard-page.tsx')),
  AnalysisDashboard: lazy(() => import('./dashboard/analysis-dashboard-page.tsx')),
  AccountSettings: lazy(() => import('./account/account-settings-page.tsx')),
  Divisions: lazy(() => import('./divisions/divisions-page.tsx')),
  Employees: lazy(() => import('./employees/employees-page.tsx')),
  EmployeeEdit: lazy(() => import('./employees/employee-edit-page.tsx')),
  DivisionFiles: lazy(() => import('./files/division-files-page.tsx')),
  PdfViewer: lazy(() => import('./files/pdf-viewer-page.tsx')),
  Search: lazy(() => import('./search/search-page.tsx')),
  ProcessingTable: lazy(() => import('./admin/processing-table-page.tsx')),
  AiProviders: lazy(() => import('./ai-providers/ai-providers-page.tsx')),
  Tags: lazy(() => import('./tags/tags-page.tsx')),
  FeedbackReport: lazy(() => import('./reports/feedback-report-page.tsx')),
  KnowledgeGaps: lazy(() => import('./reports/knowledge-gaps-page.tsx')),
  Chat: lazy(() => import('./chat/chat-page.tsx')),
  PublicChat: lazy(() => withSignedInTexts(import('./public-chat/public-chat-page.tsx'))),
  PublicFeedback: lazy(() => withSignedInTexts(import('./public-feedback/public-feedback-page.tsx'))),
  ActivityLog: lazy(() => import('./admin/activity-log-page.tsx')),
  Emails: lazy(() => import('./admin/emails-page.tsx')),
  EmailDetail: lazy(() => import('./admin/email-detail-page.tsx')),
  EmailTemplates: lazy(() => import('./admin/email-templates-page.tsx')),
  EmailTemplateEdit: lazy(() => import('./admin/email-template-edit-page.tsx')),
  SystemSettings: lazy(() => import('./admin/system-settings-page.tsx')),
  AdminDataManagers: lazy(() => import('./admin-people/data-managers-page.tsx')),
  AdminDataManagerDetail: lazy(() => import('./admin-people/data-manager-detail-page.tsx')),
  AdminPublicUsers: lazy(() => import('./admin-people/public-users-page.tsx')),
  AdminPublicUserDetail: lazy(() => import('./admin-people/public-user-detail-page.tsx')),
  AdminCompanies: lazy(() => import('./admin-people/companies-page.tsx')),
  AdminRoles: lazy(() => import('./admin/roles/roles-page.tsx')),
  AdminRole: lazy(() => import('./admin/roles/role-page.tsx')),
  AdminStaff: lazy(() => import('./admin/staff/staff-page.tsx')),
  AdminStaffMember: lazy(() => import('./admin/staff/staff-member-page.tsx')),
  Checkout: lazy(() => import('./billing/checkout-page.tsx')),
  InvoicePreview: lazy(() => import('./billing/invoice-preview-page.tsx')),
  AdminPayments: lazy(() => import('./admin-billing/payments-page.tsx')),
  AdminPaymentDetail: lazy(() => import('./admin-billing/payment-detail-page.tsx')),
  AdminInvoices: lazy(() => import('./admin-billing/invoices-page.tsx')),
  AdminPlans: lazy(() => import('./admin-billing/plans-page.tsx')),
  Handwerk: lazy(() => import('./handwerk/handwerk-page.tsx')),
  Orders: lazy(() => import('./handwerk/orders-page.tsx')),
  EmailSettings: lazy(() => import('./email-settings/email-settings-page.tsx')),
};
