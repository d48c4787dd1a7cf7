import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDivision, insertPassage } from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { files, subscriptions } from '../../db/schema/index.ts';

/**
 * A question reads the company's plan and its scope's languages through `ctx.questionState`, which keeps them a
 * second: a change this process writes must still decide the very next question. Each change below is made right
 * after a question, well within that second.
 */
let t: TestServer;
let admin: Awaited<ReturnType<typeof signedInAs>>;
const db = () => t.server.ctx.db;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  admin = await signedInAs(t, 'Administrator');
}, 120_000);
afterAll(() => t?.close());

/** A data manager's chat over one division holding one ready file; the company on the given plan. */
async function askingCompany(plan: 'trial' | 'monthly') {
  const dm = await signedInAs(t, 'DataManager');
  const companyId = dm.companyId!;
  const now = Date.now();
  await db()
    .insert(subscriptions)
    .values({
      companyId,
      plan,
      status: 'trial',
      startsAt: new Date(now - DAY),
      endsAt: new Date(now + 14 * DAY),
    });
  const division = await insertDivision(t, companyId);
  const { file } = await insertPassage(t, {
    companyId,
    divisionId: division.id,
    text: 'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet.',
  });
  const chat = await dm.client.post('/chats', { name: 'Heizung', divisionIds: [division.id] });
  expect(chat.status).toBe(201);
  const ask = () =>
    stream(dm.client, `/chats/${chat.body.id}/messages`, { content: 'Womit wird der Heizkörper entlüftet?' });
  return { companyId, file, ask };
}

const outcome = (res: Awaited<ReturnType<typeof stream>>) =>
  res.status === 200 ? res.done().status : `${res.status} ${res.body.error.code}`;

describe('what a question reads before its search, kept a second', () => {
  it('refuses the next question once the subscription has ended', async () => {
    const { companyId, ask } = await askingCompany('trial');
    // Twice: the second is read from the cache or reads it again, either way well within the second.
    expect(outcome(await ask())).toBe('complete');
    expect(outcome(await ask())).toBe('complete');
    await db().update(subscriptions).set({ status: 'expired' }).where(eq(subscriptions.companyId, companyId));
    expect(outcome(await ask())).toBe('403 PLAN_EXPIRED');
  });

  it('counts the next question against a monthly cap the plan was just given', async () => {
    const { ask } = await askingCompany('monthly');
    expect(outcome(await ask())).toBe('complete');
    const plans = await admin.client.get('/admin/plans');
    const monthly = plans.body.items.find((p: { key: string }) => p.key === 'monthly');
    const capped = await admin.client.put('/admin/plans/monthly', {
      priceCents: monthly.priceCents,
      limits: { ...monthly.limits, questionsPerMonth: 1 },
    });
    expect(capped.status).toBe(200);
    try {
      expect(outcome(await ask())).toBe('409 PLAN_LIMIT_REACHED');
    } finally {
      await admin.client.put('/admin/plans/monthly', {
        priceCents: monthly.priceCents,
        limits: monthly.limits,
      });
    }
  });

  it('answers from a file published right after a refusal, and refuses once it is withdrawn', async () => {
    const { file, ask } = await askingCompany('trial');
    await db().update(files).set({ activeGeneration: null }).where(eq(files.id, file.id));
    expect(outcome(await ask())).toBe('409 CHAT_NO_READY_FILE');
    await db().update(files).set({ activeGeneration: 1 }).where(eq(files.id, file.id));
    expect(outcome(await ask())).toBe('complete');
    await db().execute(sql`delete from files where id = ${file.id}`);
    expect(outcome(await ask())).toBe('409 CHAT_NO_READY_FILE');
  });
});
