import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
  verifiedDataManager,
} from '../../../test/support/test-server.ts';
import { emailOutbox, subscriptions, users } from '../../db/schema/index.ts';
import { COMPANY, customerOf, draftOf, line } from '../sales-documents/sales-document-fixtures.ts';

/**
 * Issue 28, finding 3: nobody sends mail in bulk through the operator's server. A trial company may cause 5 mails an
 * hour and 8 a day here, a paying one 7 an hour.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    env: {
      MAIL_BUDGET_TRIAL_PER_HOUR: '5',
      MAIL_BUDGET_TRIAL_PER_DAY: '8',
      MAIL_BUDGET_PER_HOUR: '7',
      MAIL_BUDGET_PER_DAY: '100',
    },
  });
});
afterAll(() => t?.close());

let n = 0;
const companyName = () => `Budget ${++n} ${Date.now()}`;

async function companyOf(email: string): Promise<string> {
  const [row] = await t.server.ctx.db.select().from(users).where(eq(users.email, email));
  return row!.companyId!;
}

async function budgetedMails(companyId: string): Promise<number> {
  const { rows } = await t.server.ctx.db.execute<{ n: number }>(
    sql`select count(*)::int as n from email_outbox where company_id = ${companyId} and budgeted`,
  );
  return rows[0]!.n;
}

/** An issued offer of the data manager's company. */
async function issuedOffer(client: ApiClient): Promise<string> {
  expect((await client.put('/company/details', COMPANY)).status).toBe(200);
  const customerId = await customerOf(client, { email: `kunde-${Date.now()}@kunde.example` });
  const id = await draftOf(client, customerId, 'offer', [line('Wartung', 1, 9000)]);
  expect((await client.post(`/handwerk/documents/${id}/finalise`)).status).toBe(200);
  return id;
}

const phishing = (i: number) => ({
  to: `opfer-${i}-${Date.now()}@anderswo.example`,
  subject: 'Ihr Konto wird gesperrt',
  message: 'Bitte melden Sie sich unter http://böse.example an.',
  attach: 'pdf',
});

const employee = () => ({
  email: `ma-${Math.random().toString(36).slice(2)}@firma.example`,
  firstName: 'Mia',
  lastName: 'Koch',
  language: 'de',
  divisionIds: [],
});

describe('mail a company causes', () => {
  it('is refused to an unverified sign-up, and a trial company sends at most its hour, even at once', async () => {
    const dm = await signedInDataManager(t, { companyName: companyName() });
    const companyId = await companyOf(dm.email);
    const offer = await issuedOffer(dm.client);
    const unverified = await dm.client.post(`/handwerk/documents/${offer}/mails`, phishing(0));
    expect([unverified.status, unverified.body.error.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    expect(await budgetedMails(companyId)).toBe(0);

    const mail = await t.smtp!.waitFor(
      (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
    );
    await dm.client.post('/auth/verify-email', { token: new URL(mail.link!).searchParams.get('token') });
    const sends = await Promise.all(
      Array.from({ length: 30 }, (_, i) => dm.client.post(`/handwerk/documents/${offer}/mails`, phishing(i))),
    );
    // Every answer by status and code, so that a failure shows what the others got.
    const answers: Record<string, number> = {};
    for (const r of sends) {
      const answer = r.status === 202 ? '202' : `${r.status} ${r.body?.error?.code}`;
      answers[answer] = (answers[answer] ?? 0) + 1;
    }
    expect(answers).toEqual({ '202': 5, '429 MAIL_BUDGET_EXCEEDED': 25 });
    const refused = sends.filter((r) => r.status !== 202);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.error.code).toBe('MAIL_BUDGET_EXCEEDED');
      expect(r.body.error.details).toMatchObject({ scope: 'hour', max: 5, trial: true });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect(r.body.error.message).toMatch(
        /^Ihr Unternehmen hat so viele E-Mails versendet, wie es pro Stunde darf \(5\)\. Bitte versuchen Sie es in \d+ Min\. erneut\.$/,
      );
    }
    expect(await budgetedMails(companyId)).toBe(5);
  });

  it("refuses with the day's message once the day is full though the hour has room", async () => {
    const dm = await verifiedDataManager(t, { companyName: companyName(), language: 'en' });
    const companyId = await companyOf(dm.email);
    const earlier = new Date(Date.now() - 3 * 3600_000);
    await t.server.ctx.db.insert(emailOutbox).values(
      Array.from({ length: 8 }, () => ({
        to: 'frueher@firma.example',
        template: 'setPassword',
        language: 'de',
        subject: 'Einladung',
        text: 'x',
        html: 'x',
        companyId,
        budgeted: true,
        createdAt: earlier,
      })),
    );
    const res = await dm.client.post('/employees', employee());
    expect([res.status, res.body.error.code, res.body.error.details.scope]).toEqual([
      429,
      'MAIL_BUDGET_EXCEEDED',
      'day',
    ]);
    expect(res.body.error.message).toMatch(
      /^Your company has sent as many emails as it may per day \(8\)\. Please try again in 21 h\.$/,
    );
    // Nothing of the refused employee was written.
    expect((await dm.client.get('/employees')).body.total).toBe(0);
  });

  it('counts invitations: parallel additions and an import stop at the budget and write nothing beyond it', async () => {
    const dm = await verifiedDataManager(t, { companyName: companyName(), language: 'en' });
    const added = await Promise.all(
      Array.from({ length: 12 }, () => dm.client.post('/employees', employee())),
    );
    expect(added.filter((r) => r.status === 201)).toHaveLength(5);
    expect(added.filter((r) => r.status === 429)).toHaveLength(7);
    expect((await dm.client.get('/employees')).body.total).toBe(5);
    // A new address of the user's choosing is the company's mail as well.
    const moved = await dm.client.post('/auth/change-email', {
      email: `neu-${Date.now()}@anderswo.example`,
      currentPassword: dm.password,
    });
    expect([moved.status, moved.body.error.code]).toEqual([429, 'MAIL_BUDGET_EXCEEDED']);

    const other = await verifiedDataManager(t, { companyName: companyName(), language: 'en' });
    const csv = [
      'email,firstName,lastName',
      ...Array.from({ length: 12 }, (_, i) => `import-${i}-${Date.now()}@firma.example,Ina,Import${i}`),
    ].join('\n');
    const imported = await other.client.post('/employees/import', { csv });
    expect(imported.status).toBe(200);
    expect(imported.body.created).toBe(5);
    expect(imported.body.rejected.map((r: { row: number }) => r.row)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(imported.body.rejected[0].errors[0]).toMatchObject({ code: 'errors.MAIL_BUDGET_EXCEEDED' });
    expect(imported.body.rejected[0].errors[0].message).toMatch(
      /per hour \(5\)\. Please try again in \d+ min\.$/,
    );
    expect(await budgetedMails(await companyOf(other.email))).toBe(5);
  });

  it('gives a paying company the larger budget', async () => {
    const dm = await verifiedDataManager(t, { companyName: companyName() });
    const companyId = await companyOf(dm.email);
    await t.server.ctx.db
      .update(subscriptions)
      .set({ plan: 'monthly', status: 'active', source: 'manual' })
      .where(eq(subscriptions.companyId, companyId));
    const added = await Promise.all(
      Array.from({ length: 10 }, () => dm.client.post('/employees', employee())),
    );
    expect(added.filter((r) => r.status === 201)).toHaveLength(7);
    expect(added.find((r) => r.status === 429)!.body.error.details).toMatchObject({ max: 7, trial: false });
  });

  it('sends invitations that waited for the address within the budget and the rest later; resending waits too', async () => {
    const dm = await signedInDataManager(t, { companyName: companyName() });
    const companyId = await companyOf(dm.email);
    const waiting = [];
    for (let i = 0; i < 7; i++) waiting.push((await dm.client.post('/employees', employee())).body);
    const early = await dm.client.post(`/employees/${waiting[0].id}/resend-invitation`);
    expect([early.status, early.body.error.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);

    const mail = await t.smtp!.waitFor(
      (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
    );
    await dm.client.post('/auth/verify-email', { token: new URL(mail.link!).searchParams.get('token') });
    for (let i = 0; i < 100 && (await budgetedMails(companyId)) < 5; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await budgetedMails(companyId)).toBe(5);
    // The job comes back for the other two when the hour has room again.
    const comesBack = async () =>
      (
        await t.server.ctx.pool.query<{ n: number }>(
          `select count(*)::int as n from pgboss.job where name = 'employees.waiting-invitations'
             and state = 'created' and start_after > now() + interval '50 minutes' and data->>'companyId' = $1`,
          [companyId],
        )
      ).rows[0]!.n;
    for (let i = 0; i < 100 && (await comesBack()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await comesBack()).toBe(1);
    expect(await budgetedMails(companyId)).toBe(5);
  });
});

describe('the operator', () => {
  it('sees who sends how much beside their budgets, and changes the budgets in the settings', async () => {
    const name = companyName();
    const dm = await verifiedDataManager(t, { companyName: name });
    const companyId = await companyOf(dm.email);
    for (let i = 0; i < 3; i++) expect((await dm.client.post('/employees', employee())).status).toBe(201);

    const admin = await signedInAdmin(t);
    const listed = await admin.get(`/admin/email-senders?q=${encodeURIComponent(name)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        companyId,
        companyName: name,
        trial: true,
        lastHour: 3,
        lastDay: 3,
        perHour: 5,
        perDay: 8,
      }),
    ]);
    const all = (await admin.get('/admin/email-senders?pageSize=100')).body.items as Array<{
      lastDay: number;
    }>;
    expect(all.map((s) => s.lastDay)).toEqual([...all.map((s) => s.lastDay)].sort((a, b) => b - a));
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/admin/email-senders')).status).toBe(200);
    expect((await dm.client.get('/admin/email-senders')).status).toBe(403);
    expect((await t.client().get('/admin/email-senders')).status).toBe(401);

    const budget = { perHour: 7, perDay: 100, trialPerHour: 3, trialPerDay: 8 };
    expect((await admin.put('/admin/system-settings/mail-budget', budget)).status).toBe(200);
    try {
      const over = await dm.client.post('/employees', employee());
      expect([over.status, over.body.error.details.max]).toEqual([429, 3]);
      expect(
        (await admin.put('/admin/system-settings/mail-budget', { ...budget, trialPerHour: 4 })).status,
      ).toBe(200);
      expect((await dm.client.post('/employees', employee())).status).toBe(201);
      const bad = await admin.put('/admin/system-settings/mail-budget', { ...budget, trialPerHour: 0 });
      expect([bad.status, bad.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    } finally {
      await admin.put('/admin/system-settings/mail-budget', { ...budget, trialPerHour: 5 });
    }
    expect(
      await t.server.ctx.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.budgeted, true))),
    ).toHaveLength(4);
  });
});
