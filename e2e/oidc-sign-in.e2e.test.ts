import { GOOGLE_BUTTON_SCRIPT } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInProviders } from '../apps/server/src/db/schema/index.ts';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/test/support/oidc-provider.ts';
import { signedInAdmin, type TestServer } from '../apps/server/test/support/test-server.ts';
import { openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
let idp: TestOidcProvider;

beforeAll(async () => {
  t = await startAppServer();
  idp = await startOidcProvider({ redirectUri: `${t.url}/api/v1/auth/oidc/callback`, style: 'google' });
  await saveProvider('Firmen-Login');
});

/** The test provider saved by the operator under `name`, offered on the user sign-in page; answers its id. */
async function saveProvider(name: string): Promise<string> {
  const res = await (await signedInAdmin(t)).post('/admin/sign-in-providers', {
    kind: 'oidc',
    name,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    allowedDomains: [],
    areas: ['user'],
    enabled: true,
  });
  if (res.status !== 201) throw new Error(`provider not saved: ${JSON.stringify(res.body)}`);
  return res.body.id;
}
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

  it("signs in with Google's own button, drawn by Google's script on the sign-in page", async () => {
    const admin = await signedInAdmin(t);
    await admin.put('/admin/system-settings/sign-up', { signupEnabled: true, botProtection: true });
    const id = await saveProvider('Google');
    // Saving a Google provider fixes Google's issuer, out of reach here: the test provider stands in for Google.
    await t.server.ctx.db.update(signInProviders).set({ kind: 'google' }).where(eq(signInProviders.id, id));
    const who = { sub: `gis-${Date.now()}`, email: `gis-${Date.now()}@firma.example`, email_verified: true };
    const browser = await openBrowser();
    const { page } = browser;
    try {
      // The person choosing their Google account: Google issues the ID token with the nonce the page gave it.
      await page.exposeFunction('chooseGoogleAccount', (nonce: string) => idp.credential(who, { nonce }));
      await page.route(GOOGLE_BUTTON_SCRIPT, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: GOOGLE_SCRIPT_DOUBLE }),
      );
      await page.goto(`${t.url}/login`);
      await page.getByTestId('google-button').getByRole('button', { name: 'Sign in with Google' }).click();
      await page.waitForURL(`${t.url}/dashboard`);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

/**
 * A stand-in for Google's script at its own address (the page's Content-Security-Policy must allow it): the
 * `google.accounts.id` calls the page makes, a button, and on its click the ID token handed to the page's callback.
 */
const GOOGLE_SCRIPT_DOUBLE = `
window.google = { accounts: { id: (() => {
  let config;
  return {
    initialize(c) { config = c; },
    renderButton(parent, options) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Sign in with Google';
      button.lang = options.locale;
      button.onclick = async () => config.callback({ credential: await window.chooseGoogleAccount(config.nonce), select_by: 'btn' });
      parent.append(button);
    },
  };
})() } };
`;
