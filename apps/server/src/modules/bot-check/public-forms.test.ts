import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import { createUser } from '../../../test/support/factories.ts';
import {
  registration,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { issueUserToken } from '../../core/user-tokens.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(async () => t?.close());

/** A client that sends forms exactly as given (no widget solving for it). */
function bare() {
  const client = t.client();
  client.solveBotChecks = false;
  return client;
}

async function usersWith(email: string): Promise<number> {
  const { rows } = await t.server.ctx.db.execute<{ n: number }>(
    sql`select count(*)::int as n from users where email = ${email}`,
  );
  return rows[0]!.n;
}

async function resetToken(purpose: 'reset_password' | 'set_password') {
  const { user } = await createUser(t, 'DataManager');
  return t.server.ctx.db.transaction((tx) => issueUserToken(tx, user.id, purpose));
}

const FORMS: Record<
  string,
  () => Promise<{ path: string; body: Record<string, unknown>; done?(): Promise<boolean> }>
> = {
  register: async () => {
    const body = registration();
    return { path: '/auth/register', body, done: async () => (await usersWith(body.email)) === 1 };
  },
  'public feedback': async () => {
    const dm = await signedInDataManager(t);
    const divisionId = (await dm.client.post('/divisions', { name: 'Service' })).body.id as string;
    const chatId = (
      await dm.client.post('/chats', { name: 'Fragen', visibility: 'public', divisionIds: [divisionId] })
    ).body.id as string;
    const chatToken = (await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
    const stored = async () => (await dm.client.get('/feedback?origin=public')).body.items.length === 1;
    return { path: '/public/feedback', body: { chatToken, rating: 3 }, done: stored };
  },
  'forgot password': async () => ({
    path: '/auth/forgot-password',
    body: { email: 'someone@firma.example' },
  }),
  ...Object.fromEntries(
    (['reset_password', 'set_password'] as const).map((purpose) => [
      purpose.replace('_', ' '),
      async () => {
        const token = await resetToken(purpose);
        return {
          path: `/auth/${purpose.replace('_password', '-password')}`,
          body: { token, password: 'neu-Pass-123', confirmPassword: 'neu-Pass-123' },
        };
      },
    ]),
  ),
};

describe('the bot check of every public form', () => {
  it.each(Object.keys(FORMS))(
    '%s: refuses a missing, an invalid and a replayed solution before doing anything',
    async (name) => {
      const form = await FORMS[name]!();
      const missing = await bare().post(form.path, form.body);
      if (form.done) expect(await form.done()).toBe(false);
      expect([missing.status, missing.body.error.code]).toEqual([400, 'BOT_CHECK_MISSING']);
      const invalid = await bare().post(form.path, {
        ...form.body,
        botCheck: Buffer.from('{"x":1}').toString('base64'),
      });
      expect([invalid.status, invalid.body.error.code]).toEqual([403, 'BOT_CHECK_FAILED']);

      const botCheck = await solvedAltcha(t.client());
      // The refused attempts did nothing (a reset token is still unspent): the solved check lets the form through.
      const first = await bare().post(form.path, { ...form.body, botCheck });
      expect(first.status).toBeLessThan(300);
      if (form.done) expect(await form.done()).toBe(true);
      const replayed = await bare().post(form.path, { ...form.body, botCheck });
      expect([replayed.status, replayed.body.error.code]).toEqual([403, 'BOT_CHECK_FAILED']);
    },
  );

  it('asks for nothing when the operator switched bot protection off', async () => {
    const off = await startTestServer({ smtp: false, env: { BOT_PROTECTION: 'off' } });
    try {
      const client = off.client();
      client.solveBotChecks = false;
      expect((await client.post('/auth/forgot-password', { email: 'a@firma.example' })).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
