import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { TEST_SECRETS } from '../../../test/support/test-database.ts';
import {
  registration,
  signedInAdmin,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { SettingsCache } from './settings-cache.ts';

let t: TestServer;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { SMTP_URL: 'smtp://mailer:smtp-secret-pass@127.0.0.1:1' } });
  admin = await signedInAdmin(t);
});
afterAll(() => t?.close());

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Puts one image as the logo, as the settings page does (one multipart part `file`). */
function putLogo(name: string, content: Buffer | string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(Buffer.from(content))]), name);
  return admin.request('PUT', '/admin/system-settings/logo', undefined, { form });
}

async function waitForActivity(action: string) {
  for (let i = 0; i < 100; i++) {
    const list = await admin.get(`/admin/activity-log?q=${action}&pageSize=100`);
    const entries = list.body.items.filter((e: { action: string }) => e.action === action);
    if (entries.length > 0) return entries;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${action} entry`);
}

describe('system settings', () => {
  it("shows the settings over the environment's values and never a secret", async () => {
    const res = await admin.get('/admin/system-settings');
    expect(res.status).toBe(200);
    expect(res.body.values).toEqual(res.body.defaults);
    expect(res.body.values.signUp).toEqual({
      signupEnabled: true,
      botProtection: true,
      ipCountryLookup: false,
    });
    expect(res.body.values.activityLog).toEqual({ retentionDays: 180 });
    expect(res.body.values.plans.trialDays).toBe(14);
    expect(res.body.logo).toBeNull();
    const raw = JSON.stringify(res.body);
    for (const secret of [...Object.values(TEST_SECRETS), 'smtp-secret-pass', 'admin-pass-1']) {
      expect(raw).not.toContain(secret);
    }
  });

  it('turns sign-up off: the next sign-up is refused with the spec message, and on again', async () => {
    const off = await admin.put('/admin/system-settings/sign-up', {
      signupEnabled: false,
      botProtection: true,
    });
    expect(off.status).toBe(200);
    expect(off.body.values.signUp.signupEnabled).toBe(false);
    const visitor = t.client();
    visitor.language = 'en';
    const refused = await visitor.post('/auth/register', registration());
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'SIGNUP_DISABLED',
      message: 'Sign-up is not available.',
    });
    expect((await visitor.get('/config')).body.signupEnabled).toBe(false);

    const [entry] = await waitForActivity('updateSignUpSettings');
    expect(entry.changes).toEqual({
      before: { signupEnabled: true, botProtection: true, ipCountryLookup: false },
      after: { signupEnabled: false, botProtection: true, ipCountryLookup: false },
    });

    expect(
      (await admin.put('/admin/system-settings/sign-up', { signupEnabled: true, botProtection: true }))
        .status,
    ).toBe(200);
    expect((await visitor.post('/auth/register', registration())).status).toBe(201);
  });

  it('switches bot protection off and on for the public forms', async () => {
    await admin.put('/admin/system-settings/sign-up', { signupEnabled: true, botProtection: false });
    expect((await t.client().get('/config')).body.botProtection.provider).toBe('off');
    await admin.put('/admin/system-settings/sign-up', { signupEnabled: true, botProtection: true });
    expect((await t.client().get('/config')).body.botProtection.provider).toBe('altcha');
  });

  it('switches the phone input’s country detection on only when the environment names a lookup service', async () => {
    const refused = await admin.put('/admin/system-settings/sign-up', {
      signupEnabled: true,
      botProtection: true,
      ipCountryLookup: true,
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'COUNTRY_LOOKUP_UNCONFIGURED']);
    expect((await t.client().get('/config')).body.ipCountryLookup.enabled).toBe(false);

    const lookup = await startTestServer({
      smtp: false,
      env: { IP_COUNTRY_LOOKUP_URL: 'https://lookup.example/self' },
    });
    try {
      const operator = await signedInAdmin(lookup);
      expect((await lookup.client().get('/config')).body.ipCountryLookup).toEqual({
        enabled: false,
        url: 'https://lookup.example/self',
      });
      const on = await operator.put('/admin/system-settings/sign-up', {
        signupEnabled: true,
        botProtection: true,
        ipCountryLookup: true,
      });
      expect(on.body.values.signUp.ipCountryLookup).toBe(true);
      const config = await lookup.client().get('/config');
      expect(config.body.ipCountryLookup.enabled).toBe(true);
      // The browser may ask that service for the country (beside the requests of Google's sign-in button).
      expect(config.headers.get('content-security-policy')).toContain(
        "connect-src 'self' https://accounts.google.com/gsi/ https://lookup.example;",
      );
    } finally {
      await lookup.close();
    }
  });

  it('changes the app title, address and default language that the public branding endpoint serves', async () => {
    const before = (await admin.get('/admin/system-settings')).body.values.general;
    const res = await admin.put('/admin/system-settings/general', {
      appTitle: 'Wissensbank',
      publicUrl: 'https://wissen.example/',
      defaultLanguage: 'fr',
    });
    expect(res.status).toBe(200);
    const config = (await t.client().get('/config')).body;
    expect(config).toMatchObject({
      appTitle: 'Wissensbank',
      defaultLanguage: 'fr',
      apiBaseUrl: 'https://wissen.example/api/v1',
    });
    // Nobody said which language: the answer speaks the installation's new default.
    const anonymous = await t.client().get('/admin/system-settings');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe('Veuillez vous connecter pour continuer.');
    expect((await admin.put('/admin/system-settings/general', before)).status).toBe(200);
    expect((await t.client().get('/config')).body.appTitle).toBe('Werkwissen');
  });

  it("does not store a value equal to the environment's, so the environment governs it again", async () => {
    await admin.put('/admin/system-settings/plans', {
      divisionsLimit: 10000,
      employeesLimit: 10000,
      storageLimitMb: 5120,
      trialDays: 30,
    });
    const { rows } = await t.server.ctx.pool.query('select values from system_settings');
    expect(rows[0].values.plans).toEqual({ trialDays: 30 });
    await admin.put('/admin/system-settings/plans', {
      divisionsLimit: 10000,
      employeesLimit: 10000,
      storageLimitMb: 5120,
      trialDays: 14,
    });
    const after = await t.server.ctx.pool.query('select values from system_settings');
    expect(after.rows[0].values.plans).toEqual({});
  });

  it('applies a new plan limit to the next request', async () => {
    const dm = await signedInAs(t, 'DataManager');
    expect((await dm.client.post('/divisions', { name: 'Heizung' })).status).toBe(201);
    await admin.put('/admin/system-settings/plans', {
      divisionsLimit: 1,
      employeesLimit: 10000,
      storageLimitMb: 5120,
      trialDays: 14,
    });
    const refused = await dm.client.post('/divisions', { name: 'Elektro' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
      details: { limit: 'divisions', max: 1 },
    });
    expect((await dm.client.get('/divisions')).body.limit).toBe(1);
    await admin.put('/admin/system-settings/plans', {
      divisionsLimit: 10000,
      employeesLimit: 10000,
      storageLimitMb: 5120,
      trialDays: 14,
    });
  });

  it('validates each tab with the rules of the start-up configuration, in the reader’s language', async () => {
    const plans = await admin.put('/admin/system-settings/plans', {
      divisionsLimit: -1,
      employeesLimit: 1.5,
      storageLimitMb: 5120,
      trialDays: 366,
    });
    expect(plans.status).toBe(422);
    expect(plans.body.error.code).toBe('VALIDATION_FAILED');
    // The administrator's saved language is German (the installation's default when they were created).
    expect(plans.body.error.message).toBe('Bitte füllen Sie das Formular korrekt aus.');
    const fields = Object.fromEntries(
      plans.body.error.details.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(fields).toEqual({
      divisionsLimit: 'Der Wert muss mindestens 0 betragen.',
      employeesLimit: 'Geben Sie eine ganze Zahl ein.',
      trialDays: 'Der Wert darf höchstens 365 betragen.',
    });

    const branding = await admin.put('/admin/system-settings/branding', {
      primaryColor: 'orange',
      primaryColorDark: '#b54708',
      surfaceLight: '#ffffff',
      surfaceDark: '#2F3349',
      logo: 'x',
    });
    expect(branding.status).toBe(422);
    const codes = branding.body.error.details.fields.map(
      (f: { field: string; code: string }) => `${f.field} ${f.code}`,
    );
    expect(codes).toEqual(
      expect.arrayContaining(['primaryColor validation.color', 'logo validation.unknownField']),
    );

    const general = await admin.put('/admin/system-settings/general', {
      appTitle: ' ',
      publicUrl: 'ftp://wissen.example',
      defaultLanguage: 'xx',
    });
    expect(general.body.error.details.fields.map((f: { code: string }) => f.code).sort()).toEqual([
      'validation.language',
      'validation.required',
      'validation.url',
    ]);
  });

  it('takes a logo (type and size checked), serves it publicly and names it in /config', async () => {
    const uploaded = await putLogo('logo.png', PNG);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.logo).toMatchObject({ contentType: 'image/png', sizeBytes: PNG.length });
    const config = (await t.client().get('/config')).body;
    expect(config.logoUrl).toBe(uploaded.body.logo.url);
    const image = await fetch(`${t.url}${config.logoUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    const etag = image.headers.get('etag')!;
    const again = await fetch(`${t.url}${config.logoUrl}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const [entry] = await waitForActivity('uploadLogo');
    expect(entry.changes).toMatchObject({
      before: null,
      after: { contentType: 'image/png', sizeBytes: PNG.length },
    });

    const svg = await putLogo(
      'logo.svg',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(svg.status).toBe(415);
    expect(svg.body.error.code).toBe('LOGO_TYPE_UNSUPPORTED');
    const huge = await putLogo('big.png', Buffer.concat([PNG, Buffer.alloc(600 * 1024)]));
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ code: 'LOGO_TOO_LARGE', details: { limitKb: 512 } });
    // The refused uploads left the logo as it was.
    expect((await t.client().get('/config')).body.logoUrl).toBe(uploaded.body.logo.url);

    const removed = await admin.delete('/admin/system-settings/logo');
    expect(removed.body.logo).toBeNull();
    expect((await t.client().get('/config')).body.logoUrl).toBe('/assets/img/logo.png');
    expect((await t.client().get('/branding/logo')).status).toBe(404);
  });

  it('reaches another process on its next read, without a restart', async () => {
    const other = new SettingsCache(t.server.ctx.db, t.server.ctx.config, t.server.ctx.log);
    expect((await other.current()).activityLog.retentionDays).toBe(180);
    await admin.put('/admin/system-settings/activity-log', { retentionDays: 30 });
    expect((await other.current()).activityLog.retentionDays).toBe(30);
    await admin.put('/admin/system-settings/activity-log', { retentionDays: 180 });
    expect((await other.current()).activityLog.retentionDays).toBe(180);
  });

  it('are read by staff, changed only by administrators, closed to companies and to visitors', async () => {
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/admin/system-settings')).status).toBe(200);
    expect((await staff.client.put('/admin/system-settings/activity-log', { retentionDays: 1 })).status).toBe(
      403,
    );
    expect((await staff.client.delete('/admin/system-settings/logo')).status).toBe(403);
    for (const kind of ['DataManager', 'Employee'] as const) {
      const { client } = await signedInAs(t, kind);
      expect((await client.get('/admin/system-settings')).status).toBe(403);
      expect(
        (await client.put('/admin/system-settings/sign-up', { signupEnabled: false, botProtection: false }))
          .status,
      ).toBe(403);
    }
    expect((await t.client().put('/admin/system-settings/plans', {})).status).toBe(401);
    expect((await admin.get('/admin/system-settings')).body.values.signUp.signupEnabled).toBe(true);
  });
});
