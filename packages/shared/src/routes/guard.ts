import type { Action, Subject } from '../permissions/subjects.ts';
import { type AppRoute, areaOfPath, findRoute, LOGIN_BY_AREA, matchPath, REDIRECTS } from './manifest.ts';
import { isReturnPath } from './return-path.ts';

/**
 * The navigation guard: spec section 4's ten steps, in that order, as one pure function over the route manifest.
 * "Signed in" is read from the stored userData (tokens are httpOnly, see design/product.md); `empty` is a stored
 * session that is present but unusable.
 */
export interface GuardInput {
  path: string;
  search: string;
  session: 'none' | 'empty' | 'signedIn';
  can(action: Action, subject: Subject): boolean;
  signupEnabled: boolean;
  /** The admin invoice list exists only where plans are sold (the spec gates it to one variant; issue 15: billing on). */
  invoiceListEnabled: boolean;
}

export type GuardDecision =
  | { kind: 'allow'; route: AppRoute }
  | { kind: 'redirect'; to: string; clearSession?: boolean }
  | { kind: 'notFound' };

const SIGNUP_ROUTES = new Set(['signup', 'start', 'register']);

function loginFor(path: string, search: string): string {
  return `${LOGIN_BY_AREA[areaOfPath(path)]}?to=${encodeURIComponent(path + search)}`;
}

/** The `?to=` return path, if it is a path of this site (never another origin; the server's rule, `isReturnPath`). */
export function returnPath(search: string): string | null {
  const to = new URLSearchParams(search).get('to');
  return to !== null && isReturnPath(to) ? to : null;
}

function fixedRedirect(path: string): string | null {
  for (const { from, to } of REDIRECTS) {
    const params = matchPath(from, path);
    if (params) return to.replace(/:([A-Za-z]+)/g, (_, name: string) => params[name] ?? '');
  }
  return null;
}

export function guard(input: GuardInput): GuardDecision {
  const { path, search, session } = input;
  const signedIn = session === 'signedIn';
  // Spec section 2: the root goes to /redirecting with a session, otherwise to /login keeping the query.
  if (path === '/') return { kind: 'redirect', to: signedIn ? '/redirecting' : `/login${search}` };
  const redirect = fixedRedirect(path);
  if (redirect) return { kind: 'redirect', to: redirect };
  const route = findRoute(path);

  // 1 and 2: the bare /admin path.
  if (path === '/admin') {
    return signedIn
      ? { kind: 'redirect', to: '/admin/dashboard' }
      : { kind: 'redirect', to: loginFor(path, search) };
  }
  // 3: public routes pass.
  if (route?.access === 'public') return { kind: 'allow', route };
  // 4: sign-up routes exist only while sign-up is enabled.
  if (route && SIGNUP_ROUTES.has(route.id) && !input.signupEnabled) return { kind: 'notFound' };
  // 5: the admin invoice list exists only in one variant.
  if (path === '/admin/invoice/list' && !input.invoiceListEnabled) return { kind: 'notFound' };
  // 6: a stored but empty session is cleared.
  if (session === 'empty') return { kind: 'redirect', to: loginFor(path, search), clearSession: true };
  // 7: the chat needs a session.
  if ((path === '/chat' || path.startsWith('/chat/')) && !signedIn) {
    return { kind: 'redirect', to: `/login?to=${encodeURIComponent(path + search)}` };
  }
  // 8: unauthenticated-only routes send a signed-in user to the root, or back to where a sign-in was asked for.
  if (route?.access === 'guestOnly' && signedIn) return { kind: 'redirect', to: returnPath(search) ?? '/' };
  // 9: a route the user lacks permission for: visitors to their area's login, signed-in users to not-authorized.
  if (route?.access === 'signedIn') {
    if (!signedIn) return { kind: 'redirect', to: loginFor(path, search) };
    if (route.permission && !input.can(route.permission.action, route.permission.subject)) {
      return { kind: 'redirect', to: '/not-authorized' };
    }
  }
  // 10: certificates are disabled.
  if (path === '/certificates' || path.startsWith('/certificates/')) return { kind: 'notFound' };
  return route ? { kind: 'allow', route } : { kind: 'notFound' };
}
