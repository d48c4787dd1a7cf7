import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/test/support/oidc-provider.ts';
import { signedInAdmin, type TestServer } from '../apps/server/test/support/test-server.ts';
import { openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
let idp: TestOidcProvider;

beforeAll(async () => {
  t = await startAppServer();
  idp = await startOidcProvider({ redirectUri: `${t.url}/api/v1/auth/oidc/callback`, style: 'google' });
  const admin = await signedInAdmin(t);
  const res = await admin.post('/admin/sign-in-providers', {
    kind: 'oidc',
    name: 'Firmen-Login',
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    allowedDomains: [],
    areas: ['user'],
    enabled: true,
  });
  if (res.status !== 201) throw new Error(`provider not saved: ${JSON.stringify(res.body)}`);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

describe('signing in with an OpenID Connect provider', () => {
  it('signs a new customer in through the provider, then shows the linked account in the security settings', async () => {
    const email = `idp-${Date.now()}@firma.example`;
    idp.signInAs({
      sub: `browser-${Date.now()}`,
      email,
      email_verified: true,
      given_name: 'Ida',
      family_name: 'Provider',
    });
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${t.url}/login`);
      await page
        .getByRole('link', { name: text('en', 'auth.oidc.signInWith', { name: 'Firmen-Login' }) })
        .click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/account-settings/security`);
      const card = page.getByTestId('identities-card');
      await card.getByText(`Firmen-Login · ${email}`).waitFor();
      // The new account speaks the installation's default language (German) and has no password: the one
      // provider account is its only way in and is not unlinked.
      await card.getByRole('button', { name: text('de', 'account.identities.unlink') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('de', 'account.identities.unlink') })
        .click();
      await page.getByText(text('de', 'errors.IDENTITY_LAST_SIGN_IN')).waitFor();
      await card.getByText(`Firmen-Login · ${email}`).waitFor();
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('comes back to the sign-in page with the spec’s message for an address without an account', async () => {
    await (await signedInAdmin(t)).put('/admin/system-settings/sign-up', {
      signupEnabled: false,
      botProtection: true,
    });
    idp.signInAs({
      sub: `nobody-${Date.now()}`,
      email: `nobody-${Date.now()}@firma.example`,
      email_verified: true,
    });
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${t.url}/login`);
      await page
        .getByRole('link', { name: text('en', 'auth.oidc.signInWith', { name: 'Firmen-Login' }) })
        .click();
      await page.getByTestId('login-error').waitFor();
      expect(await page.getByTestId('login-error').textContent()).toBe(text('en', 'errors.OIDC_NO_ACCOUNT'));
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      await browser.close();
    }
  });
});
