import type { UserKind } from '@werkwissen/shared';

/** The sign-in pages of each kind of user, for links in mails (spec section 2). */
export function areaPaths(kind: UserKind): {
  confirmPassword: string;
  setPassword: string;
  login: string;
  forgotPassword: string;
  /** The account settings, where the phone number is confirmed. */
  account: string;
} {
  switch (kind) {
    case 'Employee':
      return {
        confirmPassword: '/employee/confirm-password',
        setPassword: '/setPassword',
        login: '/employee/login',
        forgotPassword: '/employee/forgot-password',
        account: '/employee/account-settings/account',
      };
    case 'Administrator':
    case 'Staff':
      return {
        confirmPassword: '/admin/auth/confirm-password',
        setPassword: '/setPassword',
        login: '/admin/auth/login',
        forgotPassword: '/admin/auth/forgot-password',
        account: '/admin/account-settings/account',
      };
    default:
      return {
        confirmPassword: '/confirm-password',
        setPassword: '/setPassword',
        login: '/login',
        forgotPassword: '/forgot-password',
        account: '/account-settings/account',
      };
  }
}
