import type { PageName } from '@werkwissen/shared';
import { type ComponentType, lazy } from 'react';
import { loadSignedInTexts } from '../i18n/i18n.ts';
import type { ShellPageName } from './shell-pages.ts';

/**
 * Every page the route manifest can name (`PAGE_NAMES`), each loaded lazily in its own chunk. Keyed by `PageName`, so
 * a page missing here or a misspelt name fails the type-check. The shell's pages are imported by `shell-pages.ts`,
 * which loads with the shell's layout (`loadShellPages`), so their chunk lists stay out of the first load.
 */
export const loadShellPages = () => import('./shell-pages.ts');

const shellPage = (name: ShellPageName) =>
  lazy((): Promise<{ default: ComponentType }> => loadShellPages().then((m) => m.SHELL_PAGES[name]()));

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
  OAuthConsent: lazy(() => import('./auth/oauth-consent-page.tsx')),
  ConfirmEmail: lazy(() => import('./auth/confirm-email-page.tsx')),
  Redirecting: lazy(() => import('./auth/redirecting-page.tsx')),
  TokenError: lazy(() => import('./misc/token-error-page.tsx')),
  NotAuthorized: lazy(() => import('./misc/not-authorized-page.tsx')),
  NotFound: lazy(() => import('./misc/not-found-page.tsx')),
  ServerError: lazy(() => import('./misc/server-error-page.tsx')),
  ComingSoon: lazy(() => import('./misc/coming-soon-page.tsx')),
  UnderMaintenance: lazy(() => import('./misc/maintenance-page.tsx')),
  Dashboard: shellPage('Dashboard'),
  AdminDashboard: shellPage('AdminDashboard'),
  AnalysisDashboard: shellPage('AnalysisDashboard'),
  AccountSettings: shellPage('AccountSettings'),
  Divisions: shellPage('Divisions'),
  Employees: shellPage('Employees'),
  EmployeeEdit: shellPage('EmployeeEdit'),
  DivisionFiles: shellPage('DivisionFiles'),
  MicrosoftConsentCallback: shellPage('MicrosoftConsentCallback'),
  GoogleConsentCallback: shellPage('GoogleConsentCallback'),
  PdfViewer: shellPage('PdfViewer'),
  Search: shellPage('Search'),
  ProcessingTable: shellPage('ProcessingTable'),
  AiProviders: shellPage('AiProviders'),
  Tags: shellPage('Tags'),
  FeedbackReport: shellPage('FeedbackReport'),
  KnowledgeGaps: shellPage('KnowledgeGaps'),
  Chat: shellPage('Chat'),
  PublicChat: lazy(() => withSignedInTexts(import('./public-chat/public-chat-page.tsx'))),
  ChatWidget: lazy(() => withSignedInTexts(import('./chat-widget/chat-widget-page.tsx'))),
  PublicFeedback: lazy(() => withSignedInTexts(import('./public-feedback/public-feedback-page.tsx'))),
  ActivityLog: shellPage('ActivityLog'),
  Emails: shellPage('Emails'),
  EmailDetail: shellPage('EmailDetail'),
  EmailTemplates: shellPage('EmailTemplates'),
  EmailTemplateEdit: shellPage('EmailTemplateEdit'),
  SystemSettings: shellPage('SystemSettings'),
  AdminDataManagers: shellPage('AdminDataManagers'),
  AdminDataManagerDetail: shellPage('AdminDataManagerDetail'),
  AdminPublicUsers: shellPage('AdminPublicUsers'),
  AdminPublicUserDetail: shellPage('AdminPublicUserDetail'),
  AdminCompanies: shellPage('AdminCompanies'),
  AdminRoles: shellPage('AdminRoles'),
  AdminRole: shellPage('AdminRole'),
  AdminStaff: shellPage('AdminStaff'),
  AdminStaffMember: shellPage('AdminStaffMember'),
  Checkout: shellPage('Checkout'),
  InvoicePreview: shellPage('InvoicePreview'),
  AdminPayments: shellPage('AdminPayments'),
  AdminPaymentDetail: shellPage('AdminPaymentDetail'),
  AdminInvoices: shellPage('AdminInvoices'),
  AdminPlans: shellPage('AdminPlans'),
  Handwerk: shellPage('Handwerk'),
  Orders: shellPage('Orders'),
  EmailSettings: shellPage('EmailSettings'),
  InboundMails: shellPage('InboundMails'),
};
