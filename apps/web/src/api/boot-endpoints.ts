import type {
  adminPeopleContracts,
  authContracts,
  publicChatContracts,
  systemContracts,
} from '@werkwissen/shared';
import { endpoint } from './http.ts';

/**
 * The endpoints the first load calls (the shell, the session and the sign-in page), without their contract modules:
 * those carry zod schemas, which the sign-in page must not wait for. Each is typed by its contract, so a method or
 * path that drifts from it fails the type-check.
 */
export const bootEndpoints = {
  config: endpoint<typeof systemContracts.config>({ method: 'GET', path: '/config', permission: 'public' }),
  me: endpoint<typeof authContracts.me>({ method: 'GET', path: '/auth/me', permission: 'signedIn' }),
  updateMe: endpoint<typeof authContracts.updateMe>({
    method: 'PATCH',
    path: '/auth/me',
    permission: 'signedIn',
  }),
  login: endpoint<typeof authContracts.login>({ method: 'POST', path: '/auth/login', permission: 'public' }),
  logout: endpoint<typeof authContracts.logout>({
    method: 'POST',
    path: '/auth/logout',
    permission: 'public',
  }),
  /** Back to the operator's own session after viewing as a user (also when that view ran out while away). */
  endImpersonation: endpoint<typeof adminPeopleContracts.endImpersonation>({
    method: 'POST',
    path: '/auth/impersonation/end',
    permission: 'public',
  }),
  altchaChallenge: endpoint<typeof publicChatContracts.altcha>({
    method: 'GET',
    path: '/public/altcha-challenge',
    permission: 'public',
  }),
};
