import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/factories.ts';
import { registration, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
const PER_RECIPIENT = 2;
const PER_ADDRESS = 4;
beforeAll(async () => {
  t = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      MAIL_MAX_PER_RECIPIENT_PER_HOUR: String(PER_RECIPIENT),
      MAIL_FORMS_MAX_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
    },
  });
});
afterAll(() => t?.close());

function fromNewAddress() {
  const client = t.client().from();
  client.language = 'en';
  return client;
}

describe('forms that send mail are limited', () => {
  it('sends at most the limit of reset mails to one recipient, known or not, whatever the address', async () => {
    const known = (await createUser(t, 'DataManager')).user.email;
    for (const email of [known, `unbekannt-${Date.now()}@nowhere.example`]) {
      for (let i = 0; i < PER_RECIPIENT; i++) {
        expect((await fromNewAddress().post('/auth/forgot-password', { email })).status).toBe(200);
      }
      const refused = await fromNewAddress().post('/auth/forgot-password', { email });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    await t.smtp!.waitFor((m) => m.to.includes(known));
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.smtp!.mails.filter((m) => m.to.includes(known))).toHaveLength(PER_RECIPIENT);
  });

  it('limits sign-ups and reset requests of one address together', async () => {
    const client = fromNewAddress();
    for (let i = 0; i < PER_ADDRESS - 1; i++) {
      expect(
        (await client.post('/auth/forgot-password', { email: `person${i}-${Date.now()}@firma.example` }))
          .status,
      ).toBe(200);
    }
    expect((await client.post('/auth/register', registration())).status).toBe(201);
    const refused = await client.post('/auth/register', registration());
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });

  it('keeps the name typed into a public form out of the subject and the first line', async () => {
    const body = registration({ firstName: 'Gewinn abholen unter spam.example', language: 'en' });
    expect((await fromNewAddress().post('/auth/register', body)).status).toBe(201);
    const verify = await t.smtp!.waitFor((m) => m.to.includes(body.email as string));
    expect(verify.subject).not.toContain('spam.example');
    expect(verify.text.split('\n')[0]).toBe('Hello,');
    expect((await fromNewAddress().post('/auth/forgot-password', { email: body.email })).status).toBe(200);
    const reset = await t.smtp!.waitFor(
      (m) => m.to.includes(body.email as string) && m.subject.includes('Reset'),
    );
    expect(reset.text).not.toContain('spam.example');
  });
});

describe('forgot password', () => {
  it('answers before looking the address up: the reset mail is written by the worker afterwards', async () => {
    const api = await startTestServer({ role: 'api', smtp: false });
    try {
      const { user } = await createUser(api, 'DataManager');
      const res = await api.client().post('/auth/forgot-password', { email: user.email });
      expect(res.status).toBe(200);
      const { rows } = await api.server.ctx.db.execute(
        sql`select 1 from email_outbox where "to" = ${user.email}`,
      );
      expect(rows).toHaveLength(0);
      const { rows: queued } = await api.server.ctx.db.execute<{ data: { email: string } }>(
        sql`select data from pgboss.job where name = 'auth.password-reset-mail'`,
      );
      expect(queued.map((r) => r.data.email)).toEqual([user.email]);
    } finally {
      await api.close();
    }
  });
});
