import { GOOGLE_CALLBACK_PATH, MICROSOFT_CALLBACK_PATH } from '../contracts/connector-callback-paths.ts';
import type { Action, Subject, UserKind } from '../permissions/subjects.ts';
import type { PageName } from './pages.ts';

/**
 * Every product route of the web app: its layout, who may open it, the permission it needs and its menu entry.
 * The router, the navigation guard and the menus all read this list. Later capabilities add their pages here.
 */
export type RouteAccess = 'public' | 'guestOnly' | 'signedIn';
/** `bare`: the page alone, no frame of the product around it (the website widget's page, inside a website's frame). */
export type RouteLayout = 'blank' | 'default' | 'bare';
export type Area = 'user' | 'employee' | 'admin' | 'analysis';

export interface MenuEntry {
  section: 'overview' | 'knowledge' | 'chat' | 'reports' | 'company' | 'administration' | 'account';
  /** Locale key of the label. */
  label: string;
  /** Tabler icon name (component names of @tabler/icons-react without the `Icon` prefix). */
  icon: string;
  /** Where the menu entry links when the path has parameters. */
  to?: string;
  order: number;
  /** The same page listed in another area's menu too, under its own label there (e.g. analysis from the back office). */
  alsoIn?: Array<{ area: Area } & Pick<MenuEntry, 'section' | 'label' | 'icon' | 'order'>>;
}

export interface AppRoute {
  id: string;
  path: string;
  /** The page component the web app lazily loads (one of `PAGE_NAMES`). */
  page: PageName;
  layout: RouteLayout;
  access: RouteAccess;
  area: Area;
  permission?: { action: Action; subject: Subject };
  /** Locale key of the page title. */
  title: string;
  menu?: MenuEntry;
  /** A blank-layout page that needs the whole width (no brand panel), like the public chat. */
  wide?: boolean;
}

const auth = (
  id: string,
  path: string,
  page: PageName,
  area: Area,
  access: RouteAccess,
  title: string,
): AppRoute => ({
  id,
  path,
  page,
  layout: 'blank',
  access,
  area,
  title,
});

/** The chat screen at one of its paths; `menu` puts it in the navigation. */
const chat = (
  id: string,
  path: string,
  area: Area,
  permission: { action: Action; subject: Subject },
  menu = false,
): AppRoute => ({
  id,
  path,
  page: 'Chat',
  layout: 'default',
  access: 'signedIn',
  area,
  permission,
  title: 'pages.chat.title',
  ...(menu ? { menu: { section: 'chat', label: 'nav.chat', icon: 'Messages', order: 10 } as MenuEntry } : {}),
});

/** A view of the data manager's feedback report. */
const report = (id: string, path: string, title: string, menu?: MenuEntry): AppRoute => ({
  id,
  path,
  page: path.endsWith('knowledge-gaps') ? 'KnowledgeGaps' : 'FeedbackReport',
  layout: 'default',
  access: 'signedIn',
  area: 'user',
  permission: { action: 'read', subject: 'Feedback' },
  title,
  ...(menu ? { menu } : {}),
});

export const APP_ROUTES: AppRoute[] = [
  // Sign-in screens of each area (blank layout)
  auth('login', '/login', 'Login', 'user', 'guestOnly', 'pages.login.title'),
  auth('register', '/register', 'Register', 'user', 'guestOnly', 'pages.register.title'),
  auth('signup', '/signup', 'Register', 'user', 'guestOnly', 'pages.register.title'),
  auth('start', '/start', 'Register', 'user', 'guestOnly', 'pages.register.title'),
  auth('setPassword', '/setPassword', 'SetPassword', 'user', 'guestOnly', 'pages.setPassword.title'),
  auth(
    'forgotPassword',
    '/forgot-password',
    'ForgotPassword',
    'user',
    'public',
    'pages.forgotPassword.title',
  ),
  auth(
    'confirmPassword',
    '/confirm-password',
    'ResetPassword',
    'user',
    'public',
    'pages.resetPassword.title',
  ),
  auth(
    'handwerkPassword',
    '/handwerkPassword',
    'ResetPassword',
    'user',
    'public',
    'pages.resetPassword.title',
  ),
  auth('verify', '/verify', 'Verify', 'user', 'public', 'pages.verify.title'),
  // An MCP client (Claude, an IDE) asks the signed-in user for access (OAuth 2.1, modules/mcp-oauth on the server).
  // Whoever may hold API keys may connect an app (the token is a credential like a key).
  {
    ...auth(
      'oauthConsent',
      '/oauth/consent/:uid',
      'OAuthConsent',
      'user',
      'signedIn',
      'pages.oauthConsent.title',
    ),
    permission: { action: 'manage', subject: 'ApiKey' },
  },
  auth('confirmEmail', '/confirm-email', 'ConfirmEmail', 'user', 'public', 'pages.confirmEmail.title'),
  auth('redirecting', '/redirecting', 'Redirecting', 'user', 'public', 'pages.redirecting.title'),
  auth('tokenError', '/token-error', 'TokenError', 'user', 'public', 'pages.tokenError.title'),
  auth('notAuthorized', '/not-authorized', 'NotAuthorized', 'user', 'public', 'pages.notAuthorized.title'),
  auth(
    'notAuthorizedMisc',
    '/pages/misc/not-authorized',
    'NotAuthorized',
    'user',
    'public',
    'pages.notAuthorized.title',
  ),
  auth('comingSoon', '/pages/misc/coming-soon', 'ComingSoon', 'user', 'public', 'pages.comingSoon.title'),
  auth(
    'maintenance',
    '/pages/misc/under-maintenance',
    'UnderMaintenance',
    'user',
    'public',
    'pages.maintenance.title',
  ),
  auth('serverError', '/pages/misc/server-error', 'ServerError', 'user', 'public', 'pages.serverError.title'),
  auth('employeeLogin', '/employee/login', 'Login', 'employee', 'guestOnly', 'pages.login.title'),
  auth(
    'employeeForgot',
    '/employee/forgot-password',
    'ForgotPassword',
    'employee',
    'public',
    'pages.forgotPassword.title',
  ),
  auth(
    'employeeConfirm',
    '/employee/confirm-password',
    'ResetPassword',
    'employee',
    'public',
    'pages.resetPassword.title',
  ),
  auth('adminLogin', '/admin/auth/login', 'Login', 'admin', 'guestOnly', 'pages.login.title'),
  auth(
    'adminForgot',
    '/admin/auth/forgot-password',
    'ForgotPassword',
    'admin',
    'public',
    'pages.forgotPassword.title',
  ),
  auth(
    'adminConfirm',
    '/admin/auth/confirm-password',
    'ResetPassword',
    'admin',
    'public',
    'pages.resetPassword.title',
  ),
  auth('analysisLogin', '/analysis/auth/login', 'Login', 'analysis', 'guestOnly', 'pages.login.title'),
  auth(
    'analysisForgot',
    '/analysis/auth/forgot-password',
    'ForgotPassword',
    'analysis',
    'public',
    'pages.forgotPassword.title',
  ),

  // Data manager (default layout)
  {
    id: 'dashboard',
    path: '/dashboard',
    page: 'Dashboard',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'user' },
    title: 'pages.dashboard.title',
    menu: { section: 'overview', label: 'nav.dashboard', icon: 'LayoutDashboard', order: 10 },
  },
  {
    id: 'accountSettings',
    path: '/account-settings/:tab',
    page: 'AccountSettings',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'user' },
    title: 'pages.accountSettings.title',
    menu: {
      section: 'account',
      label: 'nav.accountSettings',
      icon: 'Settings',
      to: '/account-settings/account',
      order: 90,
    },
  },

  {
    id: 'divisions',
    path: '/divisions',
    page: 'Divisions',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'manage', subject: 'Division' },
    title: 'pages.divisions.title',
    menu: { section: 'knowledge', label: 'nav.divisions', icon: 'Folders', order: 20 },
  },
  {
    id: 'search',
    path: '/search',
    page: 'Search',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'File' },
    title: 'pages.search.title',
    menu: { section: 'knowledge', label: 'nav.search', icon: 'Search', order: 30 },
  },
  {
    id: 'divisionFiles',
    path: '/divisions/:divisionId',
    page: 'DivisionFiles',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'manage', subject: 'File' },
    title: 'pages.files.title',
  },
  {
    // Microsoft's consent page sends the browser back here (the redirect URI registered in the Entra app).
    id: 'microsoftConsentCallback',
    path: MICROSOFT_CALLBACK_PATH,
    page: 'MicrosoftConsentCallback',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'create', subject: 'Connector' },
    title: 'pages.microsoftConsent.title',
  },
  {
    // Google's consent page sends the browser back here (the redirect URI registered in the OAuth client).
    id: 'googleConsentCallback',
    path: GOOGLE_CALLBACK_PATH,
    page: 'GoogleConsentCallback',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'create', subject: 'Connector' },
    title: 'pages.googleConsent.title',
  },
  {
    id: 'fileViewer',
    path: '/files/:fileId/view',
    page: 'PdfViewer',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'File' },
    title: 'pages.fileViewer.title',
  },
  {
    id: 'employees',
    path: '/employee-add',
    page: 'Employees',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'user' },
    title: 'pages.employees.title',
    menu: { section: 'company', label: 'nav.employees', icon: 'Users', order: 30 },
  },
  {
    id: 'employee',
    path: '/employee-add/:id',
    page: 'EmployeeEdit',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'user' },
    title: 'pages.employees.editTitle',
  },

  // Chat and feedback (one chat screen; the provider paths open it with that provider chosen)
  chat('chat', '/chat', 'user', { action: 'read', subject: 'user' }, true),
  chat('customTraining', '/custom-training', 'user', { action: 'read', subject: 'user' }),
  chat('mistralai', '/mistralai', 'user', { action: 'read', subject: 'user' }),
  chat('qwen', '/qwen', 'user', { action: 'read', subject: 'user' }),
  {
    id: 'aiProviders',
    path: '/ai-providers',
    page: 'AiProviders',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'update', subject: 'Company' },
    title: 'pages.aiProviders.title',
    menu: { section: 'chat', label: 'nav.aiProviders', icon: 'Robot', order: 30 },
  },
  {
    id: 'tags',
    path: '/tags',
    page: 'Tags',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'manage', subject: 'Tag' },
    title: 'pages.tags.title',
    menu: { section: 'reports', label: 'nav.tags', icon: 'Tags', order: 30 },
  },
  report('feedbackReport', '/feedback-report', 'pages.feedbackReport.title', {
    section: 'reports',
    label: 'nav.feedbackReport',
    icon: 'MessageStar',
    order: 10,
  }),
  report('employeeFeedback', '/feedback-report/employee-feedback', 'pages.feedbackReport.employeeTitle'),
  report('publicFeedback', '/feedback-report/public-feedback', 'pages.feedbackReport.publicTitle'),
  report('knowledgeGaps', '/feedback-report/knowledge-gaps', 'pages.knowledgeGaps.title', {
    section: 'reports',
    label: 'nav.knowledgeGaps',
    icon: 'ZoomQuestion',
    order: 20,
  }),
  {
    id: 'publicChat',
    path: '/p/:token',
    page: 'PublicChat',
    layout: 'blank',
    access: 'public',
    area: 'user',
    title: 'pages.publicChat.title',
    wide: true,
  },
  {
    id: 'chatWidget',
    path: '/widget/:token',
    page: 'ChatWidget',
    layout: 'bare',
    access: 'public',
    area: 'user',
    title: 'pages.publicChat.title',
  },

  // Employee
  chat('employeeChat', '/employee/chat', 'employee', { action: 'read', subject: 'employee' }, true),
  chat('employeeMistralai', '/employee/mistralai', 'employee', { action: 'read', subject: 'employee' }),
  {
    id: 'employeeSearch',
    path: '/employee/search',
    page: 'Search',
    layout: 'default',
    access: 'signedIn',
    area: 'employee',
    permission: { action: 'read', subject: 'employee' },
    title: 'pages.search.title',
    menu: { section: 'knowledge', label: 'nav.search', icon: 'Search', order: 20 },
  },
  {
    id: 'employeeFileViewer',
    path: '/employee/files/:fileId/view',
    page: 'PdfViewer',
    layout: 'default',
    access: 'signedIn',
    area: 'employee',
    permission: { action: 'read', subject: 'File' },
    title: 'pages.fileViewer.title',
  },
  {
    id: 'employeeAccountSettings',
    path: '/employee/account-settings/:tab',
    page: 'AccountSettings',
    layout: 'default',
    access: 'signedIn',
    area: 'employee',
    permission: { action: 'read', subject: 'employee' },
    title: 'pages.accountSettings.title',
    menu: {
      section: 'account',
      label: 'nav.accountSettings',
      icon: 'Settings',
      to: '/employee/account-settings/account',
      order: 90,
    },
  },

  // Administrator and staff
  {
    id: 'adminDashboard',
    path: '/admin/dashboard',
    page: 'AdminDashboard',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'admin' },
    title: 'pages.adminDashboard.title',
    menu: {
      section: 'overview',
      label: 'nav.dashboard',
      icon: 'LayoutDashboard',
      order: 10,
      alsoIn: [
        { area: 'analysis', section: 'overview', label: 'nav.backOffice', icon: 'BuildingStore', order: 20 },
      ],
    },
  },
  {
    id: 'adminAccountSettings',
    path: '/admin/account-settings/:tab',
    page: 'AccountSettings',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'admin' },
    title: 'pages.accountSettings.title',
    menu: {
      section: 'account',
      label: 'nav.accountSettings',
      icon: 'Settings',
      to: '/admin/account-settings/account',
      order: 90,
    },
  },

  {
    id: 'adminProcessingTable',
    path: '/admin/vector-database/processing-table',
    page: 'ProcessingTable',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'admin' },
    title: 'pages.processingTable.title',
    menu: { section: 'knowledge', label: 'nav.processingTable', icon: 'DatabaseCog', order: 40 },
  },

  {
    id: 'adminFeedback',
    path: '/admin/datamanager-feedback',
    page: 'FeedbackReport',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Feedback' },
    title: 'pages.feedbackReport.adminTitle',
    menu: { section: 'reports', label: 'nav.feedbackReport', icon: 'MessageStar', order: 10 },
  },

  // The operator's logs, mails and settings
  {
    id: 'adminActivityLog',
    path: '/admin/activity-log',
    page: 'ActivityLog',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'ActivityLog' },
    title: 'admin.activity.title',
    menu: { section: 'administration', label: 'admin.activity.menu', icon: 'History', order: 60 },
  },
  {
    id: 'adminEmails',
    path: '/admin/emails',
    page: 'Emails',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Email' },
    title: 'admin.emails.title',
    menu: { section: 'administration', label: 'admin.emails.menu', icon: 'Mail', order: 70 },
  },
  // Before `/admin/emails/:id`, which would otherwise take it (the first matching route wins).
  {
    id: 'adminEmailsTemplates',
    path: '/admin/emails/email_template',
    page: 'EmailTemplates',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'EmailTemplate' },
    title: 'admin.templates.title',
  },
  {
    id: 'adminEmail',
    path: '/admin/emails/:id',
    page: 'EmailDetail',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Email' },
    title: 'admin.emails.detailTitle',
  },
  {
    id: 'adminEmailTemplates',
    path: '/admin/email-templates',
    page: 'EmailTemplates',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'EmailTemplate' },
    title: 'admin.templates.title',
    menu: { section: 'administration', label: 'admin.templates.menu', icon: 'Template', order: 75 },
  },
  {
    id: 'adminEmailTemplate',
    path: '/admin/email-templates/template/:id',
    page: 'EmailTemplateEdit',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'EmailTemplate' },
    title: 'admin.templates.editTitle',
  },
  {
    id: 'adminSystemSettings',
    path: '/admin/system-settings/:tab',
    page: 'SystemSettings',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Setting' },
    title: 'admin.settings.title',
    menu: {
      section: 'administration',
      label: 'admin.settings.menu',
      icon: 'Adjustments',
      to: '/admin/system-settings/general',
      order: 80,
    },
  },
  // People in the back office: data managers, public users (the spec's routes) and companies (not named by the spec)
  {
    id: 'adminDataManagers',
    path: '/admin/users/data-manager',
    page: 'AdminDataManagers',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'User' },
    title: 'admin.users.dataManagers.title',
    menu: { section: 'administration', label: 'admin.users.nav.dataManagers', icon: 'Users', order: 20 },
  },
  {
    id: 'adminDataManager',
    path: '/admin/users/data-manager/:id',
    page: 'AdminDataManagerDetail',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'User' },
    title: 'admin.users.detailTitle',
  },
  {
    id: 'adminPublicUsers',
    path: '/admin/users/public-user',
    page: 'AdminPublicUsers',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'User' },
    title: 'admin.users.publicUsers.title',
    menu: {
      section: 'administration',
      label: 'admin.users.nav.publicUsers',
      icon: 'UserQuestion',
      order: 21,
    },
  },
  {
    id: 'adminPublicUser',
    path: '/admin/users/public-user/:id',
    page: 'AdminPublicUserDetail',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'User' },
    title: 'admin.users.publicUsers.detailTitle',
  },
  {
    id: 'adminCompanies',
    path: '/admin/companies',
    page: 'AdminCompanies',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Company' },
    title: 'admin.companies.title',
    menu: { section: 'administration', label: 'admin.companies.nav', icon: 'BuildingStore', order: 22 },
  },
  // Roles and staff (the operator's team)
  {
    id: 'adminRoles',
    path: '/admin/roles',
    page: 'AdminRoles',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Role' },
    title: 'admin.roles.title',
    menu: { section: 'administration', label: 'admin.roles.nav', icon: 'ShieldLock', order: 30 },
  },
  {
    id: 'adminRole',
    path: '/admin/roles/:roleId',
    page: 'AdminRole',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Role' },
    title: 'admin.roles.editTitle',
  },
  {
    id: 'adminStaff',
    path: '/admin/staff',
    page: 'AdminStaff',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'User' },
    title: 'admin.staff.title',
    menu: { section: 'administration', label: 'admin.staff.nav', icon: 'UserShield', order: 25 },
  },
  {
    id: 'adminStaffMember',
    path: '/admin/staff/:staffId',
    page: 'AdminStaffMember',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'User' },
    title: 'admin.staff.memberTitle',
  },

  // Analysis
  {
    id: 'analysisDashboard',
    path: '/analysis/dashboard',
    page: 'AnalysisDashboard',
    layout: 'default',
    access: 'signedIn',
    area: 'analysis',
    permission: { action: 'read', subject: 'analysis' },
    title: 'pages.analysisDashboard.title',
    menu: {
      section: 'overview',
      label: 'nav.dashboard',
      icon: 'LayoutDashboard',
      order: 10,
      alsoIn: [{ area: 'admin', section: 'overview', label: 'nav.analysis', icon: 'ChartDots', order: 15 }],
    },
  },
  {
    id: 'analysisAccountSettings',
    path: '/analysis/account-settings/:tab',
    page: 'AccountSettings',
    layout: 'default',
    access: 'signedIn',
    area: 'analysis',
    permission: { action: 'read', subject: 'analysis' },
    title: 'pages.accountSettings.title',
    menu: {
      section: 'account',
      label: 'nav.accountSettings',
      icon: 'Settings',
      to: '/analysis/account-settings/account',
      order: 90,
    },
  },

  // Billing: checkout and invoices of the data manager; the operator's payments, invoices and plan catalogue
  {
    id: 'checkout',
    path: '/checkout',
    page: 'Checkout',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'update', subject: 'Subscription' },
    title: 'billing.checkout.title',
  },
  {
    id: 'invoicePreview',
    path: '/invoice/preview/:id',
    page: 'InvoicePreview',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'Invoice' },
    title: 'billing.invoice.title',
  },
  {
    id: 'adminPayments',
    path: '/admin/payments',
    page: 'AdminPayments',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Subscription' },
    title: 'admin.payments.title',
    menu: { section: 'administration', label: 'admin.payments.menu', icon: 'CreditCard', order: 72 },
  },
  {
    id: 'adminPaymentDetail',
    path: '/admin/payments/details/:id',
    page: 'AdminPaymentDetail',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Subscription' },
    title: 'admin.payments.detailTitle',
  },
  {
    id: 'adminInvoices',
    path: '/admin/invoice/list',
    page: 'AdminInvoices',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Invoice' },
    title: 'admin.invoices.title',
    menu: { section: 'administration', label: 'admin.invoices.menu', icon: 'FileInvoice', order: 74 },
  },
  {
    id: 'adminInvoicePreview',
    path: '/admin/invoice/preview/:id',
    page: 'InvoicePreview',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Invoice' },
    title: 'billing.invoice.title',
  },
  {
    id: 'adminPlans',
    path: '/admin/plans',
    page: 'AdminPlans',
    layout: 'default',
    access: 'signedIn',
    area: 'admin',
    permission: { action: 'read', subject: 'Plan' },
    title: 'admin.plans.title',
    menu: { section: 'administration', label: 'admin.plans.menu', icon: 'Receipt', order: 76 },
  },

  // The public feedback page (the spec's address), for a public chat named by `?chat=<share token>`.
  {
    id: 'publicFeedback21',
    path: '/feedback-21chatgpt',
    page: 'PublicFeedback',
    layout: 'blank',
    access: 'public',
    area: 'user',
    title: 'publicFeedback.title',
    // The company's customers see it: no product pitch beside it (the page shows the company).
    wide: true,
  },

  // Offers and invoices drafted from the company's price lists (issue 17, item 4).
  {
    id: 'handwerk',
    path: '/handwerk',
    page: 'Handwerk',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'SalesDocument' },
    title: 'handwerk.title',
    menu: { section: 'company', label: 'handwerk.menu', icon: 'FileInvoice', order: 40 },
  },
  {
    id: 'orders',
    path: '/order',
    page: 'Orders',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'SalesDocument' },
    title: 'handwerk.orders',
    menu: { section: 'company', label: 'handwerk.ordersMenu', icon: 'ClipboardCheck', order: 42 },
  },

  // The e-mail assistant's settings (the spec names the screen, not its path).
  {
    id: 'emailSettings',
    path: '/email-settings',
    page: 'EmailSettings',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'EmailSetting' },
    title: 'emailSettings.title',
    menu: { section: 'company', label: 'emailSettings.menu', icon: 'Mail', order: 45 },
  },
  {
    id: 'inboundMails',
    path: '/email-settings/:settingId/mails',
    page: 'InboundMails',
    layout: 'default',
    access: 'signedIn',
    area: 'user',
    permission: { action: 'read', subject: 'EmailSetting' },
    title: 'emailSettings.mails.title',
  },
];

/** Fixed redirects: the spec's (section 2) and the template demo paths we do not build (see design/product.md). */
export const REDIRECTS: Array<{ from: string; to: string }> = [
  { from: '/pages/user-profile', to: '/pages/user-profile/profile' },
  { from: '/pages/user-profile/:tab', to: '/account-settings/account' },
  { from: '/pages/account-settings', to: '/pages/account-settings/account' },
  { from: '/pages/account-settings/:tab', to: '/account-settings/:tab' },
  { from: '/admin/profile', to: '/admin/account-settings/account' },
  { from: '/analysis/profile', to: '/analysis/account-settings/account' },
  { from: '/pages/authentication/login-v1', to: '/login' },
  { from: '/pages/authentication/login-v2', to: '/login' },
  { from: '/pages/authentication/register-v1', to: '/register' },
  { from: '/pages/authentication/register-v2', to: '/register' },
  { from: '/pages/authentication/register-multi-steps', to: '/register' },
  { from: '/pages/authentication/forgot-password-v1', to: '/forgot-password' },
  { from: '/pages/authentication/forgot-password-v2', to: '/forgot-password' },
  { from: '/pages/authentication/reset-password-v1', to: '/confirm-password' },
  { from: '/pages/authentication/reset-password-v2', to: '/confirm-password' },
  { from: '/pages/authentication/verify-email-v1', to: '/verify' },
  { from: '/pages/authentication/verify-email-v2', to: '/verify' },
  { from: '/pages/authentication/two-steps-v1', to: '/login' },
  { from: '/pages/authentication/two-steps-v2', to: '/login' },
  { from: '/apps/user/list', to: '/dashboard' },
  { from: '/apps/roles', to: '/dashboard' },
  { from: '/apps/permissions', to: '/dashboard' },
  { from: '/access-control', to: '/dashboard' },
];

/** Each kind of user's home, where `/redirecting` sends them. */
export const HOME_BY_KIND: Record<UserKind, string> = {
  Administrator: '/admin/dashboard',
  Staff: '/admin/dashboard',
  DataManager: '/dashboard',
  Employee: '/employee/chat',
  PublicUser: '/not-authorized',
};

export const LOGIN_BY_AREA: Record<Area, string> = {
  user: '/login',
  employee: '/employee/login',
  admin: '/admin/auth/login',
  analysis: '/analysis/auth/login',
};

/** The area a path belongs to, from its prefix. */
export function areaOfPath(path: string): Area {
  // By whole first segment: `/employee-add` is the data manager's page, not the employee area.
  const first = path.split('/')[1];
  if (first === 'employee') return 'employee';
  if (first === 'admin') return 'admin';
  if (first === 'analysis') return 'analysis';
  return 'user';
}

/** Matches a concrete path against a pattern with `:param` segments; returns the params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const seg = a[i]!;
    if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(b[i]!);
    else if (seg !== b[i]) return null;
  }
  return params;
}

export function findRoute(path: string): AppRoute | undefined {
  return APP_ROUTES.find((r) => matchPath(r.path, path) !== null);
}
