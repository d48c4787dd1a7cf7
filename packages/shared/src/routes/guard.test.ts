import { describe, expect, it } from 'vitest';
import { returnPathField } from '../contracts/oidc.contract.ts';
import type { Action, Subject } from '../permissions/subjects.ts';
import { type GuardInput, guard } from './guard.ts';

const visitor: Omit<GuardInput, 'path'> = {
  search: '',
  session: 'none',
  can: () => false,
  signupEnabled: true,
  invoiceListEnabled: false,
};
const dataManager: Omit<GuardInput, 'path'> = {
  ...visitor,
  session: 'signedIn',
  can: (action: Action, subject: Subject) => subject === 'user' && action === 'read',
};
const decide = (base: Omit<GuardInput, 'path'>, path: string, extra: Partial<GuardInput> = {}) =>
  guard({ ...base, path, ...extra });

describe('navigation guard, step by step (spec section 4)', () => {
  it('step 1: /admin without a session goes to the admin login, keeping the return path', () => {
    expect(decide(visitor, '/admin')).toEqual({ kind: 'redirect', to: '/admin/auth/login?to=%2Fadmin' });
  });

  it('step 2: /admin with a session goes to the admin dashboard', () => {
    expect(decide(dataManager, '/admin')).toEqual({ kind: 'redirect', to: '/admin/dashboard' });
  });

  it.each([
    '/forgot-password',
    '/verify',
    '/token-error',
    '/not-authorized',
    '/redirecting',
    '/pages/misc/coming-soon',
  ])('step 3: public route %s passes for visitors and signed-in users', (path) => {
    expect(decide(visitor, path).kind).toBe('allow');
    expect(decide(dataManager, path).kind).toBe('allow');
  });

  it.each(['/signup', '/start', '/register'])('step 4: %s is 404 unless sign-up is enabled', (path) => {
    expect(decide(visitor, path).kind).toBe('allow');
    expect(decide(visitor, path, { signupEnabled: false })).toEqual({ kind: 'notFound' });
  });

  it('step 5: the admin invoice list is 404 outside its variant', () => {
    expect(decide(dataManager, '/admin/invoice/list')).toEqual({ kind: 'notFound' });
  });

  it('step 6: an empty stored session is cleared and sent to login', () => {
    expect(decide({ ...visitor, session: 'empty' }, '/dashboard')).toEqual({
      kind: 'redirect',
      to: '/login?to=%2Fdashboard',
      clearSession: true,
    });
  });

  it('step 7: /chat without a session goes to login with the target path', () => {
    expect(decide(visitor, '/chat', { search: '?id=1' })).toEqual({
      kind: 'redirect',
      to: '/login?to=%2Fchat%3Fid%3D1',
    });
  });

  it.each(['/login', '/register', '/employee/login', '/admin/auth/login', '/setPassword'])(
    'step 8: unauthenticated-only %s sends a signed-in user to the root',
    (path) => {
      expect(decide(dataManager, path)).toEqual({ kind: 'redirect', to: '/' });
    },
  );

  it('step 8: after signing in, the login page sends the user back to the return path (same site only)', () => {
    expect(decide(dataManager, '/login', { search: '?to=%2Faccount-settings%2Fsecurity' })).toEqual({
      kind: 'redirect',
      to: '/account-settings/security',
    });
    expect(decide(dataManager, '/login', { search: '?to=https%3A%2F%2Fevil.example' })).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decide(dataManager, '/login', { search: '?to=%2F%2Fevil.example' })).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  // A browser drops tabs and line breaks from a URL and reads a backslash as a slash: each of these is `//evil.example`
  // to it (a redirect there left a white page). The server's check refuses them too (`returnPathField`).
  it.each([
    '%2F%09%2Fevil.example',
    '%2F%0A%2Fevil.example',
    '%2F%0D%2Fevil.example',
    '%2F%5Cevil.example',
    '%2F%00x',
  ])('step 8: a return path with a control character or backslash (%s) is not followed', (to) => {
    expect(decide(dataManager, '/login', { search: `?to=${to}` })).toEqual({ kind: 'redirect', to: '/' });
    expect(returnPathField.safeParse(decodeURIComponent(to)).success).toBe(false);
  });

  it('step 9: a visitor to a protected page goes to the login of its area', () => {
    expect(decide(visitor, '/dashboard')).toEqual({ kind: 'redirect', to: '/login?to=%2Fdashboard' });
    expect(decide(visitor, '/admin/dashboard')).toEqual({
      kind: 'redirect',
      to: '/admin/auth/login?to=%2Fadmin%2Fdashboard',
    });
    expect(decide(visitor, '/employee/account-settings/security')).toEqual({
      kind: 'redirect',
      to: '/employee/login?to=%2Femployee%2Faccount-settings%2Fsecurity',
    });
  });

  it('step 9: a page whose path only begins like an area belongs to the user area', () => {
    expect(decide(visitor, '/employee-add')).toEqual({ kind: 'redirect', to: '/login?to=%2Femployee-add' });
    expect(decide(dataManager, '/employee-add').kind).toBe('allow');
  });

  it('step 9: a signed-in user without the permission sees not-authorized', () => {
    expect(decide(dataManager, '/admin/dashboard')).toEqual({ kind: 'redirect', to: '/not-authorized' });
    expect(decide(dataManager, '/dashboard').kind).toBe('allow');
  });

  it('step 10: certificates are 404', () => {
    expect(decide(dataManager, '/certificates')).toEqual({ kind: 'notFound' });
    expect(decide(dataManager, '/certificates/Certificate')).toEqual({ kind: 'notFound' });
  });
});

describe('redirects of spec section 2', () => {
  it('sends the root to /redirecting with a session, else to /login keeping the query', () => {
    expect(decide(dataManager, '/')).toEqual({ kind: 'redirect', to: '/redirecting' });
    expect(decide(visitor, '/', { search: '?lang=de' })).toEqual({ kind: 'redirect', to: '/login?lang=de' });
  });

  it('sends the template profile and settings pages to their tabs', () => {
    expect(decide(dataManager, '/pages/user-profile')).toEqual({
      kind: 'redirect',
      to: '/pages/user-profile/profile',
    });
    expect(decide(dataManager, '/pages/account-settings')).toEqual({
      kind: 'redirect',
      to: '/pages/account-settings/account',
    });
    expect(decide(dataManager, '/pages/account-settings/security')).toEqual({
      kind: 'redirect',
      to: '/account-settings/security',
    });
  });

  it('answers 404 for unknown paths and template demos we do not build', () => {
    for (const path of ['/meal-plan', '/kanban', '/apps/email', '/no/such/page']) {
      expect(decide(dataManager, path)).toEqual({ kind: 'notFound' });
    }
  });
});
