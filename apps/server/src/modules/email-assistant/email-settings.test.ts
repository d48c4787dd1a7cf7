import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailboxUser, TestDovecot } from '../../../test/support/dovecot.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { SmtpSink } from '../../../test/support/smtp-sink.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { emailSettings } from '../../db/schema/index.ts';

const box: MailboxUser = { user: 'assistent@firma.example', pass: 'imap-pass-1' };
let t: TestServer;
let dovecot: TestDovecot;
let smtp: SmtpSink;

beforeAll(async () => {
  dovecot = await TestDovecot.start([box]);
  smtp = new SmtpSink({ auth: { user: box.user, pass: box.pass } });
  await smtp.start();
  t = await startTestServer({ smtp: false, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
  await dovecot?.stop();
});

const setting = (divisionId: string, overrides: Record<string, unknown> = {}) => ({
  fromEmail: box.user,
  allowedEmails: ['chefin@kunde.example'],
  divisionId,
  isPrivate: false,
  smtpHost: '127.0.0.1',
  smtpPort: smtp.port,
  imapHost: '127.0.0.1',
  imapPort: dovecot.port,
  smtpEmail: box.user,
  userName: box.user,
  password: box.pass,
  security: 'none',
  ...overrides,
});

async function dataManagerWithDivision() {
  const dm = await signedInDataManager(t, { language: 'en' });
  const divisionId = (await dm.client.post('/divisions', { name: 'Service' })).body.id as string;
  return { ...dm, divisionId };
}

describe('/email-settings', () => {
  it('adds, lists, changes and deletes a setting; the password is sealed and never shown', async () => {
    const dm = await dataManagerWithDivision();
    const created = await dm.client.post('/email-settings', setting(dm.divisionId));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      fromEmail: box.user,
      allowedEmails: ['chefin@kunde.example'],
      divisionName: 'Service',
      hasPassword: true,
      authservId: '',
    });
    expect(JSON.stringify(created.body)).not.toContain(box.pass);
    const [stored] = await t.server.ctx.db
      .select()
      .from(emailSettings)
      .where(eq(emailSettings.id, created.body.id));
    expect(stored!.passwordSealed).not.toContain(box.pass);
    expect(stored!.passwordSealed.startsWith('v1.')).toBe(true);

    const changed = await dm.client.put(
      `/email-settings/${created.body.id}`,
      setting(dm.divisionId, {
        allowedEmails: ['a@kunde.example', 'b@kunde.example'],
        password: '',
        isPrivate: true,
        authservId: 'MX.Firma.Example',
      }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      allowedEmails: ['a@kunde.example', 'b@kunde.example'],
      isPrivate: true,
      authservId: 'mx.firma.example',
    });
    const [kept] = await t.server.ctx.db
      .select({ sealed: emailSettings.passwordSealed })
      .from(emailSettings)
      .where(eq(emailSettings.id, created.body.id));
    expect(kept!.sealed).toBe(stored!.passwordSealed);

    expect((await dm.client.get('/email-settings')).body.items).toHaveLength(1);
    expect((await dm.client.delete(`/email-settings/${created.body.id}`)).status).toBe(204);
    expect((await dm.client.get('/email-settings')).body.items).toHaveLength(0);
    expect((await dm.client.delete(`/email-settings/${created.body.id}`)).status).toBe(404);
  });

  it('refuses a third allowed address, an empty list, a bad host and a port out of 1..65535, field by field', async () => {
    const dm = await dataManagerWithDivision();
    const res = await dm.client.post(
      '/email-settings',
      setting(dm.divisionId, {
        allowedEmails: ['a@x.example', 'b@x.example', 'c@x.example'],
        smtpHost: 'mail server',
        imapPort: 70000,
        smtpPort: 0,
        authservId: 'mx firma',
      }),
    );
    expect(res.status).toBe(422);
    const fields = Object.fromEntries(
      res.body.error.details.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(fields).toMatchObject({
      allowedEmails: 'You can add a maximum of 2 emails.',
      smtpHost: 'Please enter a valid host name or IP address.',
      imapPort: 'Enter a port from 1 to 65535.',
      smtpPort: 'Enter a port from 1 to 65535.',
      authservId: 'Please enter a valid host name or IP address.',
    });
    const none = await dm.client.post('/email-settings', setting(dm.divisionId, { allowedEmails: [] }));
    expect(none.status).toBe(422);
    expect(none.body.error.details.fields[0].field).toBe('allowedEmails');
  });

  it('tests the connection for real and tells which sign-in failed', async () => {
    const dm = await dataManagerWithDivision();
    const {
      divisionId: _,
      allowedEmails: __,
      fromEmail: ___,
      isPrivate: ____,
      ...details
    } = setting(dm.divisionId);
    const good = await dm.client.post('/email-settings/test', details);
    expect(good.status).toBe(200);
    expect(good.body).toEqual({ smtp: { ok: true, message: null }, imap: { ok: true, message: null } });

    const wrong = await dm.client.post('/email-settings/test', { ...details, password: 'falsch' });
    expect(wrong.body.smtp).toEqual({ ok: false, message: 'The server refused the user name or password.' });
    expect(wrong.body.imap).toEqual({ ok: false, message: 'The server refused the user name or password.' });

    const closed = await dm.client.post('/email-settings/test', { ...details, imapPort: 1 });
    expect(closed.body.smtp.ok).toBe(true);
    expect(closed.body.imap).toEqual({ ok: false, message: 'The server could not be reached.' });
  });

  it('shows a wrong IMAP password on the settings list once the assistant has tried the mailbox', async () => {
    const dm = await dataManagerWithDivision();
    const created = await dm.client.post('/email-settings', setting(dm.divisionId, { password: 'falsch' }));
    expect(created.status).toBe(201);
    let mailbox = created.body.mailbox;
    const deadline = Date.now() + 20_000;
    while (!mailbox.error && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      mailbox = (await dm.client.get('/email-settings')).body.items[0].mailbox;
    }
    expect(mailbox.error).toBe('The server refused the user name or password.');
  });

  it('refuses private and local hosts unless the operator allows them', async () => {
    const strict = await startTestServer({ smtp: false });
    try {
      const dm = await signedInDataManager(strict, { language: 'en' });
      const { divisionId: _, allowedEmails: __, fromEmail: ___, isPrivate: ____, ...details } = setting('x');
      const res = await dm.client.post('/email-settings/test', details);
      expect(res.body.smtp.message).toBe('This address is private or local and not allowed.');
      expect(res.body.imap.message).toBe('This address is private or local and not allowed.');
    } finally {
      await strict.close();
    }
  });

  it('keeps to the plan: no more e-mail settings than the plan allows', async () => {
    const dm = await dataManagerWithDivision();
    await t.server.ctx.db.execute(sql`update plans set email_settings = 1`);
    try {
      expect((await dm.client.post('/email-settings', setting(dm.divisionId))).status).toBe(201);
      const second = await dm.client.post('/email-settings', setting(dm.divisionId));
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('PLAN_LIMIT_REACHED');
      expect(second.body.error.details.limit).toBe('emailSettings');
      // The billing tab's bars count the saved mailbox against both limits.
      const usage = (await dm.client.get('/billing')).body.usage;
      expect(usage).toContainEqual({ limit: 'emailSettings', used: 1, max: 1 });
      expect(usage).toContainEqual(expect.objectContaining({ limit: 'smtpSettings', used: 1 }));
    } finally {
      await t.server.ctx.db.execute(sql`update plans set email_settings = null`);
    }
    await t.server.ctx.db.execute(sql`update plans set smtp_settings = 1`);
    try {
      const third = await dm.client.post('/email-settings', setting(dm.divisionId));
      expect(third.body.error.details.limit).toBe('smtpSettings');
    } finally {
      await t.server.ctx.db.execute(sql`update plans set smtp_settings = null`);
    }
  });

  it('answers 401 without a session, 403 to an employee and an operator, 404 for another company', async () => {
    const dm = await dataManagerWithDivision();
    const created = (await dm.client.post('/email-settings', setting(dm.divisionId))).body;
    expect((await t.client().get('/email-settings')).status).toBe(401);
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/email-settings')).status).toBe(403);
    expect((await employee.client.post('/email-settings', setting(dm.divisionId))).status).toBe(403);
    const admin = await signedInAs(t, 'Administrator');
    expect((await admin.client.post('/email-settings', setting(dm.divisionId))).status).toBe(403);

    const other = await dataManagerWithDivision();
    expect((await other.client.get('/email-settings')).body.items).toEqual([]);
    expect((await other.client.put(`/email-settings/${created.id}`, setting(other.divisionId))).status).toBe(
      404,
    );
    expect((await other.client.delete(`/email-settings/${created.id}`)).status).toBe(404);
    // Nor can one company's setting answer from another company's division.
    expect((await other.client.post('/email-settings', setting(dm.divisionId))).status).toBe(404);
    const test = await other.client.post('/email-settings/test', {
      ...setting(dm.divisionId, { password: '' }),
      divisionId: undefined,
      allowedEmails: undefined,
      fromEmail: undefined,
      isPrivate: undefined,
      settingId: created.id,
    });
    expect(test.status).toBe(404);
  });
});
