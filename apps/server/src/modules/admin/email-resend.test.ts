import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog, emailOutbox } from '../../db/schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

async function outboxMail(subject: string) {
  const [row] = await t.server.ctx.db
    .insert(emailOutbox)
    .values({
      to: `empfaenger-${Date.now()}@firma.example`,
      template: 'welcome',
      language: 'de',
      subject,
      text: 'Hallo Text',
      html: '<p>Hallo HTML</p>',
      status: 'failed',
      statusReason: 'smtp 550',
      attempts: 5,
    })
    .returning();
  return row!;
}

describe('resending a mail of the outbox', () => {
  it('queues a copy through the send job, leaves the original as it was and records who did it', async () => {
    const original = await outboxMail(`Erneut ${Date.now()}`);
    const admin = await signedInAdmin(t);
    admin.language = 'de';
    const res = await admin.post(`/admin/emails/${original.id}/resend`);
    expect(res.status).toBe(202);
    expect(res.body.message).toBe(`Die E-Mail an ${original.to} wird erneut gesendet.`);
    expect(res.body.emailId).not.toBe(original.id);

    const received = await t.smtp!.waitFor((m) => m.subject === original.subject);
    expect(received.to).toEqual([original.to]);
    expect(received.text.trim()).toBe('Hallo Text');

    const copy = (await admin.get(`/admin/emails/${res.body.emailId}`)).body;
    expect(copy).toMatchObject({
      to: original.to,
      subject: original.subject,
      template: 'welcome',
      language: 'de',
    });
    for (
      let i = 0;
      i < 100 && (await admin.get(`/admin/emails/${res.body.emailId}`)).body.status !== 'sent';
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await admin.get(`/admin/emails/${res.body.emailId}`)).body).toMatchObject({
      status: 'sent',
      attempts: 1,
    });
    expect((await admin.get(`/admin/emails/${original.id}`)).body).toMatchObject({
      status: 'failed',
      attempts: 5,
    });

    let entries: Array<typeof activityLog.$inferSelect> = [];
    for (let i = 0; i < 50 && entries.length === 0; i++) {
      entries = await t.server.ctx.db.select().from(activityLog).where(eq(activityLog.action, 'resendEmail'));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(entries[0]).toMatchObject({ statusCode: 202, endpoint: '/api/v1/admin/emails/:emailId/resend' });
    expect(entries[0]!.changes).toEqual({
      before: null,
      after: { resentFrom: original.id, emailId: res.body.emailId, to: original.to },
    });
  });

  it('is the administrator’s: staff who read the log may not resend (403), an unknown mail is 404', async () => {
    const original = await outboxMail('Nicht für Staff');
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.post(`/admin/emails/${original.id}/resend`)).status).toBe(403);
    const admin = await signedInAdmin(t);
    expect((await admin.post('/admin/emails/00000000-0000-4000-8000-000000000000/resend')).status).toBe(404);
    expect((await t.client().post(`/admin/emails/${original.id}/resend`)).status).toBe(401);
  });
});
