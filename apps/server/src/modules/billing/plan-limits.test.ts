import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPassage } from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog, companies, emailOutbox, subscriptions, users } from '../../db/schema/index.ts';
import { reviewPlans } from './billing.jobs.ts';

/** Billing switched off (the self-hosted default): plans come from the operator, and their limits hold. */
let t: TestServer;
let admin: Awaited<ReturnType<typeof signedInAs>>;
const db = () => t.server.ctx.db;
const DAY = 86_400_000;

const LIMITS = {
  storageBytes: null,
  divisions: null,
  employees: null,
  smtpSettings: 1,
  emailSettings: 1,
  questionsPerMonth: null,
};

/** A data manager of a company on the trial, which ends in `days`. */
async function onTrial(days = 14) {
  const dm = await signedInAs(t, 'DataManager');
  const now = Date.now();
  await db()
    .insert(subscriptions)
    .values({
      companyId: dm.companyId!,
      plan: 'trial',
      status: 'trial',
      startsAt: new Date(now - DAY),
      endsAt: new Date(now + days * DAY),
    });
  return dm;
}

const employee = (n: number) => ({
  email: `kai${n}-${Date.now()}@firma.example`,
  firstName: 'Kai',
  lastName: 'Berg',
  language: 'de',
  divisionIds: [],
});

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  admin = await signedInAs(t, 'Administrator');
  // The trial of this installation: one division, one employee, 1 KB of storage.
  const res = await admin.client.put('/admin/plans/trial', {
    priceCents: null,
    limits: { ...LIMITS, divisions: 1, employees: 1, storageBytes: 1024 },
  });
  expect(res.status).toBe(200);
}, 120_000);
afterAll(() => t?.close());

describe('limits of the plan', () => {
  it('refuses a division over the limit, naming the limit and the plan that lifts it', async () => {
    const dm = await onTrial();
    // The message and the names in it are in the asker's language.
    await db().update(users).set({ language: 'de' }).where(eq(users.id, dm.user.id));
    expect((await dm.client.post('/divisions', { name: 'Lager' })).status).toBe(201);
    const over = await dm.client.post('/divisions', { name: 'Werkstatt' });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
      details: { limit: 'divisions', max: 1, plan: 'trial', upgradePlan: 'monthly' },
    });
    expect(over.body.error.message).toBe(
      'Ihr Tarif erlaubt höchstens 1 (Bereiche). Mit „Monatstarif“ steigt diese Grenze.',
    );
    expect((await dm.client.get('/divisions')).body.limit).toBe(1);
  });

  it('refuses an employee over the limit; a plan assigned by the operator allows one more', async () => {
    const dm = await onTrial();
    expect((await dm.client.post('/employees', employee(1))).status).toBe(201);
    const over = await dm.client.post('/employees', employee(2));
    expect(over.body.error).toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
      details: { limit: 'employees', max: 1 },
    });
    const assigned = await admin.client.put(`/admin/payments/${dm.companyId}/plan`, {
      plan: 'monthly',
      endsAt: new Date(Date.now() + 30 * DAY).toISOString(),
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.subscription).toMatchObject({ plan: 'monthly', status: 'active', source: 'manual' });
    expect((await dm.client.post('/employees', employee(3))).status).toBe(201);
    const usage = (await dm.client.get('/billing')).body.usage;
    expect(usage).toContainEqual({ limit: 'employees', used: 2, max: 100 });
  });

  it('refuses an upload over the storage of the plan', async () => {
    const dm = await onTrial();
    await db().update(users).set({ language: 'de' }).where(eq(users.id, dm.user.id));
    const division = await dm.client.post('/divisions', { name: 'Lager' });
    const res = await dm.client.upload(`/divisions/${division.body.id}/files`, [
      { name: 'gross.txt', content: 'x'.repeat(4096) },
    ]);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('QUOTA_EXCEEDED');
    // The message names the plan that gives more storage, in the asker's language.
    expect(res.body.error.message).toBe(
      'Nicht genügend Speicherplatz: 0 MB von 0 MB frei. Mit „Monatstarif“ erhalten Sie mehr Speicherplatz.',
    );
  });

  it('counts questions against a monthly cap of the plan, naming the plan that lifts it', async () => {
    const capped = await admin.client.put('/admin/plans/trial', {
      priceCents: null,
      limits: { ...LIMITS, divisions: 1, employees: 1, storageBytes: 1024, questionsPerMonth: 1 },
    });
    expect(capped.status).toBe(200);
    try {
      const dm = await onTrial();
      await db().update(users).set({ language: 'de' }).where(eq(users.id, dm.user.id));
      const division = await dm.client.post('/divisions', { name: 'Heizung' });
      await insertPassage(t, {
        companyId: dm.companyId!,
        divisionId: division.body.id,
        text: 'Den Heizkörper entlüften Sie mit dem Vierkantschlüssel am oberen Ventil.',
      });
      const chat = await dm.client.post('/chats', { name: 'Fragen', divisionIds: [division.body.id] });
      const first = await dm.client.post(`/chats/${chat.body.id}/messages`, { content: 'Wie entlüfte ich?' });
      expect(first.status).toBe(200);
      const second = await dm.client.post(`/chats/${chat.body.id}/messages`, { content: 'Und danach?' });
      expect(second.status).toBe(409);
      expect(second.body.error).toMatchObject({
        code: 'PLAN_LIMIT_REACHED',
        details: { limit: 'questionsPerMonth', max: 1, plan: 'trial', upgradePlan: 'monthly' },
      });
      const usage = (await dm.client.get('/billing')).body.usage;
      expect(usage).toContainEqual({ limit: 'questionsPerMonth', used: 1, max: 1 });
    } finally {
      await admin.client.put('/admin/plans/trial', {
        priceCents: null,
        limits: { ...LIMITS, divisions: 1, employees: 1, storageBytes: 1024 },
      });
    }
  });

  it("notes the operator's plan assignment with its before and after in the activity log", async () => {
    const dm = await onTrial();
    await admin.client.put(`/admin/payments/${dm.companyId}/plan`, {
      plan: 'halfYearly',
      endsAt: new Date(Date.now() + 180 * DAY).toISOString(),
    });
    await t.server.ctx.activity.flush();
    const [entry] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.actorUserId, admin.user.id))
      .orderBy(desc(activityLog.createdAt))
      .limit(1);
    const [company] = await db().select().from(companies).where(eq(companies.id, dm.companyId!));
    const list = await admin.client.get(`/admin/payments?q=${encodeURIComponent(company!.name!)}`);
    expect(list.body.items).toContainEqual(
      expect.objectContaining({
        companyId: dm.companyId,
        plan: 'halfYearly',
        source: 'manual',
        status: 'active',
      }),
    );
    expect(entry?.changes).toMatchObject({
      before: { plan: 'trial' },
      after: { plan: 'halfYearly', source: 'manual' },
    });
  });
});

describe('without payments', () => {
  it('offers nothing for sale and refuses checkout and the portal', async () => {
    const dm = await onTrial();
    const overview = await dm.client.get('/billing');
    expect(overview.body.paymentsEnabled).toBe(false);
    expect(overview.body.plans.every((p: { forSale: boolean }) => !p.forSale)).toBe(true);
    const checkout = await dm.client.post('/billing/checkout', { plan: 'monthly' });
    expect(checkout.status).toBe(409);
    expect(checkout.body.error.code).toBe('PAYMENTS_DISABLED');
    expect((await dm.client.post('/billing/portal')).body.error.code).toBe('PAYMENTS_DISABLED');
    const hook = await t.client().request('POST', '/webhooks/stripe', undefined, { rawBody: '{}' });
    expect(hook.body.error.code).toBe('PAYMENTS_DISABLED');
  });
});

describe('the nightly review', () => {
  it('tells a trial near its end, expires one past its end with a mail, and deletes nothing', async () => {
    const ending = await onTrial(2);
    const ended = await onTrial(7);
    const division = await ended.client.post('/divisions', { name: 'Archiv' });
    await db()
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() - DAY) })
      .where(eq(subscriptions.companyId, ended.companyId!));
    await reviewPlans(t.server.ctx);
    await reviewPlans(t.server.ctx);
    const mails = async (companyId: string, template: string) =>
      db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.template, template)));
    expect(await mails(ending.companyId!, 'trialEnding')).toHaveLength(1);
    expect(await mails(ended.companyId!, 'planExpired')).toHaveLength(1);
    const status = await ended.client.get('/billing/status');
    expect(status.body.subscription).toMatchObject({ status: 'expired', ended: true, renewalDue: true });
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from divisions where id = ${division.body.id}`,
    );
    expect(rows[0]?.n).toBe(1);
    expect((await ended.client.get('/divisions')).status).toBe(200);
  });

  it('refuses new divisions, employees and mailboxes once the plan has ended; reading stays open', async () => {
    const dm = await onTrial();
    const division = await dm.client.post('/divisions', { name: 'Archiv' });
    await db()
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() - DAY) })
      .where(eq(subscriptions.companyId, dm.companyId!));
    const refusals = [
      await dm.client.post('/divisions', { name: 'Lager' }),
      await dm.client.post('/employees', employee(1)),
      await dm.client.post('/email-settings', {
        fromEmail: 'assistent@firma.example',
        allowedEmails: ['chefin@kunde.example'],
        divisionId: division.body.id,
        isPrivate: false,
        smtpHost: '127.0.0.1',
        smtpPort: 1,
        imapHost: '127.0.0.1',
        imapPort: 1,
        smtpEmail: 'assistent@firma.example',
        userName: 'assistent',
        password: 'imap-pass-1',
        security: 'none',
      }),
    ];
    for (const refused of refusals) {
      expect([refused.status, refused.body.error.code]).toEqual([403, 'PLAN_EXPIRED']);
    }
    const imported = await dm.client.post('/employees/import', {
      csv: `email,firstName,lastName\nkai-csv-${Date.now()}@firma.example,Kai,Berg`,
    });
    expect(imported.body).toMatchObject({ created: 0, rejected: [{ row: 2 }] });
    expect(imported.body.rejected[0].errors[0].code).toBe('errors.PLAN_EXPIRED');
    const { rows } = await db().execute<{
      divisions: number;
      employees: number;
      mailboxes: number;
    }>(sql`select
      (select count(*)::int from divisions where company_id = ${dm.companyId}) as divisions,
      (select count(*)::int from users where company_id = ${dm.companyId} and kind = 'Employee') as employees,
      (select count(*)::int from email_settings where company_id = ${dm.companyId}) as mailboxes`);
    expect(rows[0]).toEqual({ divisions: 1, employees: 0, mailboxes: 0 });
    expect((await dm.client.get('/divisions')).body.items).toHaveLength(1);
    expect((await dm.client.get('/employees')).status).toBe(200);
  });

  it('prompts for renewal from seven days before the end', async () => {
    const soon = await onTrial(6);
    const later = await onTrial(9);
    expect((await soon.client.get('/billing/status')).body.subscription).toMatchObject({ renewalDue: true });
    expect((await later.client.get('/billing/status')).body.subscription).toMatchObject({
      renewalDue: false,
    });
  });
});
