import type { PageName } from '@werkwissen/shared';
import type { ComponentType } from 'react';

/**
 * The pages of the signed-in shell (default layout), each in its own chunk. Apart from `index.ts`, so that the list of
 * their chunks and the chunks they need (Vite's preload lists, several KB) is not part of every first load: this module
 * loads with the shell's layout, which every one of these pages waits for anyway.
 */
export const SHELL_PAGES = {
  Dashboard: () => import('./dashboard/dashboard-page.tsx'),
  AdminDashboard: () => import('./dashboard/admin-dashboard-page.tsx'),
  AnalysisDashboard: () => import('./dashboard/analysis-dashboard-page.tsx'),
  AccountSettings: () => import('./account/account-settings-page.tsx'),
  Divisions: () => import('./divisions/divisions-page.tsx'),
  Employees: () => import('./employees/employees-page.tsx'),
  EmployeeEdit: () => import('./employees/employee-edit-page.tsx'),
  DivisionFiles: () => import('./files/division-files-page.tsx'),
  MicrosoftConsentCallback: () =>
    import('./files/consent-callback-page.tsx').then((m) => ({ default: m.MicrosoftConsentPage })),
  GoogleConsentCallback: () =>
    import('./files/consent-callback-page.tsx').then((m) => ({ default: m.GoogleConsentPage })),
  PdfViewer: () => import('./files/pdf-viewer-page.tsx'),
  Search: () => import('./search/search-page.tsx'),
  ProcessingTable: () => import('./admin/processing-table-page.tsx'),
  AiProviders: () => import('./ai-providers/ai-providers-page.tsx'),
  Tags: () => import('./tags/tags-page.tsx'),
  FeedbackReport: () => import('./reports/feedback-report-page.tsx'),
  KnowledgeGaps: () => import('./reports/knowledge-gaps-page.tsx'),
  Chat: () => import('./chat/chat-page.tsx'),
  ActivityLog: () => import('./admin/activity-log-page.tsx'),
  Emails: () => import('./admin/emails-page.tsx'),
  EmailDetail: () => import('./admin/email-detail-page.tsx'),
  EmailTemplates: () => import('./admin/email-templates-page.tsx'),
  EmailTemplateEdit: () => import('./admin/email-template-edit-page.tsx'),
  SystemSettings: () => import('./admin/system-settings-page.tsx'),
  AdminDataManagers: () => import('./admin-people/data-managers-page.tsx'),
  AdminDataManagerDetail: () => import('./admin-people/data-manager-detail-page.tsx'),
  AdminPublicUsers: () => import('./admin-people/public-users-page.tsx'),
  AdminPublicUserDetail: () => import('./admin-people/public-user-detail-page.tsx'),
  AdminCompanies: () => import('./admin-people/companies-page.tsx'),
  AdminRoles: () => import('./admin/roles/roles-page.tsx'),
  AdminRole: () => import('./admin/roles/role-page.tsx'),
  AdminStaff: () => import('./admin/staff/staff-page.tsx'),
  AdminStaffMember: () => import('./admin/staff/staff-member-page.tsx'),
  Checkout: () => import('./billing/checkout-page.tsx'),
  InvoicePreview: () => import('./billing/invoice-preview-page.tsx'),
  AdminPayments: () => import('./admin-billing/payments-page.tsx'),
  AdminPaymentDetail: () => import('./admin-billing/payment-detail-page.tsx'),
  AdminInvoices: () => import('./admin-billing/invoices-page.tsx'),
  AdminPlans: () => import('./admin-billing/plans-page.tsx'),
  Handwerk: () => import('./sales-documents/sales-documents-page.tsx'),
  Orders: () => import('./sales-documents/orders-page.tsx'),
  EmailSettings: () => import('./email-settings/email-settings-page.tsx'),
  InboundMails: () => import('./email-settings/inbound-mails-page.tsx'),
} satisfies Partial<Record<PageName, () => Promise<{ default: ComponentType }>>>;

export type ShellPageName = keyof typeof SHELL_PAGES;
