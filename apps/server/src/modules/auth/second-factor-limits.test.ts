import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../../../test/support/api-client.ts';
import { createUser } from '../../../test/support/factories.ts';
import { authenticatorSecret, signIn } from '../../../test/support/second-factor.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { emailOutbox, userSecondFactors } from '../../db/schema/index.ts';
import { totpCode } from './totp.ts';

/** Wrong second-factor codes through the real server: per pending sign-in, per account over all of them, in parallel. */
const SLOW_AFTER = 6;
const LOCK_AFTER = 9;
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    smtp: false,
    env: { TWO_FACTOR_MAX_FAILURES: String(SLOW_AFTER), TWO_FACTOR_LOCK_FAILURES: String(LOCK_AFTER) },
  });
});
afterAll(() => t?.close());

const db = () => t.server.ctx.db;

/** An operator with an enrolled authenticator, and their phone's secret. */
async function operator() {
  const { user, password } = await createUser(t, 'Staff');
  await signIn(t, t.client(), { email: user.email, password, area: 'admin' });
  const secret = (await authenticatorSecret(t, user.email))!;
  return { user, password, secret, login: { email: user.email, password, area: 'admin' } };
}

/** A code of the authenticator that is not valid now. */
const wrongCode = (secret: string) => totpCode(secret, Date.now() + 10 * 60_000);

/** The current code, with its single use forgotten (the enrolment used this step already). */
async function rightCode(userId: string, secret: string): Promise<string> {
  await db()
    .update(userSecondFactors)
    .set({ lastUsedStep: null })
    .where(eq(userSecondFactors.userId, userId));
  return totpCode(secret, Date.now());
}

/** A client holding a pending sign-in (the `ww_2fa` cookie) after the right password. */
async function pending(login: Record<string, string>): Promise<ApiClient> {
  const client = t.client();
  client.language = 'en';
  const res = await client.post('/auth/login', login);
  expect(res.body).toEqual({ secondFactor: 'verify' });
  return client;
}

/** Several pending sign-ins of one account, opened one after the other (parallel sign-ins meet the login limits). */
async function pendings(login: Record<string, string>, n: number): Promise<ApiClient[]> {
  const clients: ApiClient[] = [];
  for (let i = 0; i < n; i++) clients.push(await pending(login));
  return clients;
}

function statuses(results: ApiResponse[]) {
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const mailsTo = async (userId: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.userId, userId), eq(emailOutbox.template, 'secondFactorFailures')));

describe('wrong second-factor codes', () => {
  it('check at most five codes of one pending sign-in, however many arrive at once', async () => {
    const op = await operator();
    const client = await pending(op.login);
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        client.post('/auth/two-factor/verify', { code: wrongCode(op.secret) }),
      ),
    );
    const counts = statuses(results);
    expect(counts[422]).toBe(5);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(35);
    for (const res of results.filter((r) => r.status === 401)) {
      expect(res.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    }
    const late = await client.post('/auth/two-factor/verify', {
      code: await rightCode(op.user.id, op.secret),
    });
    expect(late.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('are counted per account over all its sign-ins: parallel guesses are slowed, then locked, and the owner told', async () => {
    const op = await operator();
    const clients = await pendings(op.login, 12);
    const results = await Promise.all(
      clients.map((client) => client.post('/auth/two-factor/verify', { code: wrongCode(op.secret) })),
    );
    expect(statuses(results)).toEqual({ 422: SLOW_AFTER, 429: 12 - SLOW_AFTER });
    const slowed = results.find((r) => r.status === 429)!;
    expect(slowed.body.error.code).toBe('TWO_FACTOR_SLOWED');
    const wait = Number(slowed.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(slowed.body.error.message).toBe(
      `Too many wrong codes. Please wait ${wait} seconds before entering the next code.`,
    );
    // Slowed means every code waits, the right one too; in the caller's language.
    const owner = await pending(op.login);
    owner.language = 'de';
    const right = await owner.post('/auth/two-factor/verify', {
      code: await rightCode(op.user.id, op.secret),
    });
    expect(right.status).toBe(429);
    expect(right.body.error.message).toMatch(/^Zu viele falsche Codes\. Bitte warten Sie \d+ Sekunden/);
    // The owner learns that someone knows their password, once.
    const [warning, ...none] = await mailsTo(op.user.id);
    expect(none).toEqual([]);
    expect(warning).toMatchObject({ to: op.user.email, language: 'en' });
    expect(warning!.text).toContain(`then ${SLOW_AFTER} wrong codes`);
    expect(warning!.text).toContain('/admin/auth/forgot-password');

    // The failed-login window passes; the day's count goes on until the second factor is locked.
    await db().execute(sql`update rate_limit_events set created_at = now() - interval '1 hour'
      where bucket = 'second-factor-failure:slow' and key = ${op.user.id}`);
    const more = await Promise.all(
      (await pendings(op.login, 5)).map((client) =>
        client.post('/auth/two-factor/verify', { code: wrongCode(op.secret) }),
      ),
    );
    expect(statuses(more)).toEqual({ 422: LOCK_AFTER - SLOW_AFTER, 429: 5 - (LOCK_AFTER - SLOW_AFTER) });
    const locked = await (await pending(op.login)).post('/auth/two-factor/verify', {
      code: await rightCode(op.user.id, op.secret),
    });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('TWO_FACTOR_LOCKED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(locked.body.error.details.minutes).toBeGreaterThan(23 * 60);
    const mails = await mailsTo(op.user.id);
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.text).join('\n')).toContain(`then ${LOCK_AFTER} wrong codes`);

    // A new password, which only the owner can set from the mail, lifts the lock.
    const token = await issueUserToken(db(), op.user.id, 'reset_password');
    const reset = await t.client().post('/auth/reset-password', {
      token,
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(reset.status).toBe(200);
    const back = await pending({ ...op.login, password: 'ganz-neu-42' });
    const done = await back.post('/auth/two-factor/verify', { code: await rightCode(op.user.id, op.secret) });
    expect(done.status).toBe(200);
  });

  it('count the codes that would switch the factor off as well', async () => {
    const { user, password } = await createUser(t, 'DataManager');
    const client = t.client();
    await signIn(t, client, { email: user.email, password, area: 'user' });
    const { secret } = (await client.post('/account/two-factor/enrolment')).body;
    await client.post('/account/two-factor/confirm', { code: totpCode(secret, Date.now()) });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.post('/account/two-factor/disable', { code: wrongCode(secret) }),
      ),
    );
    expect(statuses(results)).toEqual({ 422: SLOW_AFTER, 429: 10 - SLOW_AFTER });
    expect((await client.get('/account/two-factor')).body.enabled).toBe(true);
  });
});
