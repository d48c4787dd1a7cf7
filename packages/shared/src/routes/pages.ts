/**
 * The page components of the web app, by name. A route of the manifest names its page from this list, and the web
 * app's page registry (`apps/web/src/pages/index.ts`) must load exactly these: a misspelt or forgotten page on either
 * side fails the type-check. `NotFound` is also what the router shows for an address no route matches.
 */
export const PAGE_NAMES = [
  'Login',
  'Register',
  'SetPassword',
  'ForgotPassword',
  'ResetPassword',
  'Verify',
  'Redirecting',
  'TokenError',
  'NotAuthorized',
  'NotFound',
  'ServerError',
  'ComingSoon',
  'UnderMaintenance',
  'Dashboard',
  'AdminDashboard',
  'AccountSettings',
  'Divisions',
  'Employees',
  'EmployeeEdit',
  'DivisionFiles',
  'PdfViewer',
  'Search',
  'ProcessingTable',
  'AiProviders',
  'Tags',
  'FeedbackReport',
  'KnowledgeGaps',
  'Chat',
  'PublicChat',
  'AdminRoles',
  'AdminRole',
  'AdminStaff',
  'AdminStaffMember',
] as const;

export type PageName = (typeof PAGE_NAMES)[number];
