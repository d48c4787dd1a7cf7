import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
const PER_ACCOUNT = 3;
const PER_ADDRESS = 6;
// Behind a (trusted) proxy, X-Forwarded-For gives each client its own address.
beforeAll(async () => {
  t = await startTestServer({
    smtp: false,
    env: {
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
      LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
    },
  });
});
afterAll(() => t?.close());

const fromNewAddress = () => t.client().from();
/** How many answers had each status. */
function statuses(results: Array<{ status: number }>) {
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('failed sign-ins are limited atomically', () => {
  it('gives exactly the per-account limit to parallel wrong passwords from one address', async () => {
    const { email } = await signedInDataManager(t);
    const client = fromNewAddress();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => client.post('/auth/login', { email, password: 'falsch-123' })),
    );
    expect(statuses(results)).toEqual({ 401: PER_ACCOUNT, 429: 12 - PER_ACCOUNT });
    const limited = results.find((r) => r.status === 429)!;
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('gives exactly the per-address limit to parallel guesses at many accounts from one address', async () => {
    const client = fromNewAddress();
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        client.post('/auth/login', { email: `niemand${i}@firma.example`, password: 'falsch-123' }),
      ),
    );
    expect(statuses(results)).toEqual({ 401: PER_ADDRESS, 429: 15 - PER_ADDRESS });
  });
});

describe('an attacker cannot lock the owner out', () => {
  it('asks for the bot check from other addresses instead, the same for right and wrong passwords', async () => {
    const { email, password } = await signedInDataManager(t);
    const attacker = fromNewAddress();
    for (let i = 0; i < PER_ACCOUNT; i++) {
      expect((await attacker.post('/auth/login', { email, password: 'falsch-123' })).status).toBe(401);
    }
    expect((await attacker.post('/auth/login', { email, password })).status).toBe(429);

    const owner = fromNewAddress();
    const right = await owner.post('/auth/login', { email, password });
    const wrong = await owner.post('/auth/login', { email, password: 'falsch-123' });
    for (const res of [right, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('BOT_CHECK_REQUIRED');
    }
    expect(right.body.error.message).toBe(wrong.body.error.message);
    expect(owner.cookies.has('ww_access')).toBe(false);

    const botCheck = await solvedAltcha(owner);
    const signedIn = await owner.post('/auth/login', { email, password, botCheck });
    expect(signedIn.status).toBe(200);
    expect((await owner.get('/auth/me')).status).toBe(200);
    // A solved challenge counts once.
    const replay = await fromNewAddress().post('/auth/login', { email, password, botCheck });
    expect(replay.status).toBe(403);
    expect(replay.body.error.code).toBe('BOT_CHECK_FAILED');
  });

  it('still refuses a wrong password that comes with a solved bot check', async () => {
    const { email } = await signedInDataManager(t);
    const attacker = fromNewAddress();
    for (let i = 0; i < PER_ACCOUNT; i++)
      await attacker.post('/auth/login', { email, password: 'falsch-123' });
    const guess = fromNewAddress();
    const res = await guess.post('/auth/login', {
      email,
      password: 'falsch-456',
      botCheck: await solvedAltcha(guess),
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('change password', () => {
  it('throttles wrong current passwords, and a right one gives its slot back', async () => {
    const { client, password } = await signedInDataManager(t);
    const change = (currentPassword: string) =>
      client.post('/auth/change-password', {
        currentPassword,
        password: 'ganz-neu-42',
        confirmPassword: 'ganz-neu-42',
      });
    expect((await change(password)).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 8 }, () => change('falsch-123')));
    expect(statuses(results)).toEqual({ 422: PER_ACCOUNT, 429: 8 - PER_ACCOUNT });
    const limited = await change('ganz-neu-42');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
  });
});
