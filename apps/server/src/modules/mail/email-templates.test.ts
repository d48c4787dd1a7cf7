import { LANGUAGES, MAIL_TEMPLATE_KINDS } from '@werkwissen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';

let t: TestServer;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  t = await startTestServer();
  admin = await signedInAdmin(t);
});
afterAll(() => t?.close());

const edited = {
  subject: 'Willkommen im Team von {{company}}',
  body: 'Servus {{name}}!\n\n{{inviter}} hat Sie zu {{appTitle}} eingeladen.\n\n[Jetzt Passwort wählen]({{actionUrl}})\n\nBis bald',
};

async function activityOf(action: string) {
  const list = await admin.get(`/admin/activity-log?q=${action}&pageSize=100`);
  return list.body.items.filter((e: { action: string }) => e.action === action);
}

/** Waits for the activity hook, which writes after the answer has been sent. */
async function waitForActivity(action: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const entries = await activityOf(action);
    if (entries.length >= count) return entries;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${count} ${action} entries`);
}

describe('e-mail templates', () => {
  it('lists every mail kind, all languages on the default text at first', async () => {
    const res = await admin.get('/admin/email-templates');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { kind: string }) => i.kind)).toEqual([...MAIL_TEMPLATE_KINDS]);
    const welcome = res.body.items.find((i: { kind: string }) => i.kind === 'welcome');
    expect(welcome).toMatchObject({ editedLanguages: [], defaultLanguages: [...LANGUAGES], updatedAt: null });
  });

  it("shows one template per language with today's text and its variables described in the reader's language", async () => {
    const res = await admin.get('/admin/email-templates/setPassword');
    expect(res.status).toBe(200);
    expect(res.body.languages).toHaveLength(9);
    const de = res.body.languages.find((l: { language: string }) => l.language === 'de');
    expect(de).toMatchObject({
      edited: false,
      updatedAt: null,
      subject: 'Sie wurden zu {{appTitle}} eingeladen',
    });
    expect(de.body).toContain('[Passwort festlegen]({{actionUrl}})');
    const names = res.body.variables.map((v: { name: string }) => v.name);
    expect(names).toEqual(['name', 'appTitle', 'actionUrl', 'inviter', 'company']);
    const action = res.body.variables.find((v: { name: string }) => v.name === 'actionUrl');
    expect(action.required).toBe(true);
    // In the administrator's own language (German, the installation's default when they were created).
    expect(action.description).toContain('[Beschriftung]({{actionUrl}})');
    expect((await admin.get('/admin/email-templates/noSuchMail')).status).toBe(404);
  });

  it('refuses an unknown variable with a stable code and a translated message naming it', async () => {
    const client = await signedInAdmin(t);
    client.language = 'de';
    const res = await client.put('/admin/email-templates/setPassword/de', {
      subject: 'Hallo',
      body: 'Hallo {{vorname}}\n[Los]({{actionUrl}})',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('TEMPLATE_VARIABLE_UNKNOWN');
    expect(res.body.error.details).toMatchObject({ field: 'body', variable: 'vorname' });
    expect(res.body.error.message).toContain('„vorname“');
  });

  it('refuses a body without the action link, and an empty subject with the spec message', async () => {
    const missing = await admin.put('/admin/email-templates/passwordReset/en', {
      subject: 'Reset',
      body: 'Please reset your password.',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({
      code: 'TEMPLATE_VARIABLE_MISSING',
      details: { field: 'body', variable: 'actionUrl' },
    });
    const empty = await admin.put('/admin/email-templates/passwordReset/en', {
      subject: ' ',
      body: 'x {{actionUrl}}',
    });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('VALIDATION_FAILED');
    expect(empty.body.error.details.fields).toContainEqual(
      expect.objectContaining({ field: 'subject', code: 'validation.required' }),
    );
  });

  it('previews a draft with sample data exactly as the mail would go out, in the same layout', async () => {
    const res = await admin.post('/admin/email-templates/setPassword/de/preview', edited);
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe('Willkommen im Team von Muster Haustechnik GmbH');
    expect(res.body.text).toContain('Servus Anna!');
    expect(res.body.text).toMatch(/Jetzt Passwort wählen: http:\/\/.+\/setPassword\?token=sample/);
    expect(res.body.html).toContain('<h1 style="font-size:20px;margin:0 0 24px">Werkwissen</h1>');
    // Previewing changes nothing.
    const template = await admin.get('/admin/email-templates/setPassword');
    expect(template.body.languages.find((l: { language: string }) => l.language === 'de').edited).toBe(false);
  });

  it('saves a language, audits it with before and after, and the next invitation carries the edited text', async () => {
    const saved = await admin.put('/admin/email-templates/setPassword/de', edited);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ language: 'de', edited: true, ...edited });
    const list = await admin.get('/admin/email-templates');
    expect(list.body.items.find((i: { kind: string }) => i.kind === 'setPassword').editedLanguages).toEqual([
      'de',
    ]);

    const [entry] = await waitForActivity('updateEmailTemplate', 1);
    expect(entry.changes.before).toMatchObject({
      edited: false,
      subject: 'Sie wurden zu {{appTitle}} eingeladen',
    });
    expect(entry.changes.after).toEqual({ edited: true, ...edited });

    // A data manager whose name would be markup, verified, invites an employee who reads German.
    const dm = await signedInDataManager(t, { firstName: '<b>Chef</b>', language: 'en' });
    const verification = await t.smtp!.waitFor(
      (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
    );
    await dm.client.post('/auth/verify-email', {
      token: new URL(verification.link!).searchParams.get('token'),
    });
    const invited = await dm.client.post('/employees', {
      email: `neu-${Date.now()}@firma.example`,
      firstName: 'Mia',
      lastName: 'Koch',
      language: 'de',
      divisionIds: [],
    });
    expect(invited.status).toBe(201);
    const mail = await t.smtp!.waitFor((m) => m.to.includes(invited.body.email));
    expect(mail.subject).toBe('Willkommen im Team von Müller Haustechnik GmbH');
    expect(mail.text).toContain('Servus Mia!');
    expect(mail.text).toContain('<b>Chef</b> Müller hat Sie zu Werkwissen eingeladen.');
    expect(mail.link).toContain('/setPassword?token=');
    expect(mail.html).toContain('&lt;b&gt;Chef&lt;/b&gt; Müller hat Sie zu Werkwissen eingeladen.');
    expect(mail.html).not.toContain('<b>Chef</b>');
    // Other languages still use the default text.
    const english = await dm.client.post('/employees', {
      email: `new-${Date.now()}@firma.example`,
      firstName: 'Liam',
      lastName: 'Koch',
      language: 'en',
      divisionIds: [],
    });
    const other = await t.smtp!.waitFor((m) => m.to.includes(english.body.email));
    expect(other.subject).toBe('You have been invited to Werkwissen');
  });

  it("sends a test of the saved template to the caller's own address through the outbox", async () => {
    const res = await admin.post('/admin/email-templates/setPassword/de/test');
    expect(res.status).toBe(202);
    expect(res.body.message).toContain('admin@test.example');
    const mail = await t.smtp!.waitFor((m) => m.emailId === res.body.emailId);
    expect(mail.to).toEqual(['admin@test.example']);
    expect(mail.subject).toBe('Willkommen im Team von Muster Haustechnik GmbH');
    const logged = await admin.get(`/admin/emails/${res.body.emailId}`);
    expect(logged.body).toMatchObject({ template: 'setPassword', language: 'de', to: 'admin@test.example' });
  });

  it('resets a language to the default text, audited', async () => {
    const res = await admin.delete('/admin/email-templates/setPassword/de');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ edited: false, subject: 'Sie wurden zu {{appTitle}} eingeladen' });
    const [entry] = await waitForActivity('resetEmailTemplate', 1);
    expect(entry.changes.before).toEqual({ edited: true, ...edited });
    expect(entry.changes.after.edited).toBe(false);
    expect((await admin.delete('/admin/email-templates/setPassword/xx')).status).toBe(404);
  });

  it('are read by staff, changed only by administrators, closed to companies and to visitors', async () => {
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/admin/email-templates/welcome')).status).toBe(200);
    expect((await staff.client.put('/admin/email-templates/welcome/en', edited)).status).toBe(403);
    expect((await staff.client.post('/admin/email-templates/welcome/en/test')).status).toBe(403);
    for (const kind of ['DataManager', 'Employee'] as const) {
      const { client } = await signedInAs(t, kind);
      expect((await client.get('/admin/email-templates')).status).toBe(403);
      expect((await client.post('/admin/email-templates/welcome/en/preview', edited)).status).toBe(403);
    }
    const visitor = t.client();
    expect((await visitor.get('/admin/email-templates')).status).toBe(401);
    expect((await visitor.delete('/admin/email-templates/welcome/en')).status).toBe(401);
  });
});
