import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { freshCode } from '../../../test/support/second-factor.ts';
import {
  ADMIN,
  registration,
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { translate } from '../../i18n/translator.ts';
import { MASKED_TOKEN } from '../mail/hidden-link.ts';
import { NO_SMTP_REASON } from '../mail/send-mail.job.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function waitForStatus(
  admin: Awaited<ReturnType<typeof signedInAdmin>>,
  email: string,
  status: string,
) {
  for (let i = 0; i < 100; i++) {
    const list = await admin.get(`/admin/emails?q=${encodeURIComponent(email)}`);
    if (list.body.items.length > 0 && list.body.items.every((m: { status: string }) => m.status === status)) {
      return list.body.items;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`mails to ${email} never reached ${status}`);
}

describe('e-mail outbox without SMTP', () => {
  it('keeps the verification and welcome mails, marked not sent, visible to the administrator', async () => {
    const body = registration({ language: 'fr' });
    const client = t.client();
    expect((await client.post('/auth/register', body)).status).toBe(201);
    const admin = await signedInAdmin(t);
    const [verification] = await waitForStatus(admin, body.email, 'not_sent');
    // Told in the reader's language, not the outbox's English marker.
    const { language } = (await admin.get('/auth/me')).body.userData;
    expect(verification.statusReason).toBe(translate(language, 'admin.emails.reasons.noSmtp'));
    expect(verification.statusReason).not.toBe(NO_SMTP_REASON);
    expect(verification.language).toBe('fr');
    expect(verification.subject).toContain('Confirmez');

    // The log shows the link masked; the administrator reveals it with a fresh code to pass it on by hand.
    const detail = await admin.get(`/admin/emails/${verification.id}`);
    expect(detail.body.text).toContain(`/verify?token=${MASKED_TOKEN}`);
    const revealed = await admin.post(`/admin/emails/${verification.id}/reveal-link`, {
      code: await freshCode(t, ADMIN.email),
    });
    const token = new URL(revealed.body.link).searchParams.get('token');
    expect((await client.post('/auth/verify-email', { token })).status).toBe(200);
    const mails = await (async () => {
      for (let i = 0; i < 100; i++) {
        const items = await waitForStatus(admin, body.email, 'not_sent');
        if (items.length === 2) return items;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('welcome mail missing');
    })();
    expect(mails.map((m: { template: string }) => m.template).sort()).toEqual(['verifyEmail', 'welcome']);
    expect(t.logs.join('')).toContain(NO_SMTP_REASON);
  });

  it('is closed to data managers (403) and answers 404 for an unknown mail', async () => {
    const { client } = await signedInDataManager(t);
    expect((await client.get('/admin/emails')).status).toBe(403);
    const admin = await signedInAdmin(t);
    expect((await admin.get('/admin/emails/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('activity log', () => {
  it('records sign-ins, failed sign-ins and mutating requests with actor, endpoint and code', async () => {
    const { client, email } = await signedInDataManager(t);
    await client.patch('/auth/me', { firstName: 'Protokoll' });
    await t.client().post('/auth/login', { email, password: 'wrong-pass-1' });
    await client.get('/auth/me');
    const admin = await signedInAdmin(t);
    let entries: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 50 && entries.length < 4; i++) {
      entries = (await admin.get(`/admin/activity-log?q=${encodeURIComponent(email)}&pageSize=20`)).body
        .items;
      await new Promise((r) => setTimeout(r, 100));
    }
    const summary = entries.map((e) => `${e.action} ${e.statusCode}`).sort();
    expect(summary).toEqual(['login 200', 'login 401', 'register 201', 'updateMe 200']);
    const update = entries.find((e) => e.action === 'updateMe')!;
    expect(update).toMatchObject({ method: 'PATCH', endpoint: '/api/v1/auth/me', actorEmail: email });
    expect(update.companyId).toBeTruthy();
    expect(update.ip).toBeTruthy();
  });

  it('is readable by staff but not by employees', async () => {
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/admin/activity-log')).status).toBe(200);
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/admin/activity-log')).status).toBe(403);
  });
});
