import { type ComponentType, lazy } from 'react';

/** Every page component the route manifest names, each loaded lazily in its own chunk. */
export const PAGES: Record<string, ComponentType> = {
  Login: lazy(() => import('./auth/login-page.tsx')),
  Register: lazy(() => import('./auth/register-page.tsx')),
  SetPassword: lazy(() => import('./auth/set-password-page.tsx')),
  ForgotPassword: lazy(() => import('./auth/forgot-password-page.tsx')),
  ResetPassword: lazy(() => import('./auth/reset-password-page.tsx')),
  Verify: lazy(() => import('./auth/verify-page.tsx')),
  Redirecting: lazy(() => import('./auth/redirecting-page.tsx')),
  TokenError: lazy(() => import('./misc/token-error-page.tsx')),
  NotAuthorized: lazy(() => import('./misc/not-authorized-page.tsx')),
  NotFound: lazy(() => import('./misc/not-found-page.tsx')),
  ServerError: lazy(() => import('./misc/server-error-page.tsx')),
  ComingSoon: lazy(() => import('./misc/coming-soon-page.tsx')),
  UnderMaintenance: lazy(() => import('./misc/maintenance-page.tsx')),
  Dashboard: lazy(() => import('./dashboard/dashboard-page.tsx')),
  AdminDashboard: lazy(() => import('./dashboard/admin-dashboard-page.tsx')),
  AccountSettings: lazy(() => import('./account/account-settings-page.tsx')),
  Divisions: lazy(() => import('./divisions/divisions-page.tsx')),
  Employees: lazy(() => import('./employees/employees-page.tsx')),
  EmployeeEdit: lazy(() => import('./employees/employee-edit-page.tsx')),
  DivisionFiles: lazy(() => import('./files/division-files-page.tsx')),
  Search: lazy(() => import('./search/search-page.tsx')),
  ProcessingTable: lazy(() => import('./admin/processing-table-page.tsx')),
};
