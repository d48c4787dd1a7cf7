import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { delivery, FakeWhatsApp, textMessage } from '../../../test/support/fake-whatsapp.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

/**
 * A phone number answers on WhatsApp as its user only once the user confirmed it from that number, through the real
 * server and the Graph API double: an operator viewing as the user can neither change nor confirm it.
 */
const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';
const QUESTION = 'Womit wird der Heizkörper entlüftet?';

const fake = new FakeWhatsApp();
let llm: FakeLlm;
let t: TestServer;
let numbers = 0;

beforeAll(async () => {
  await fake.start();
  llm = await startFakeLlm();
  t = await startTestServer({ env: { ...fake.env(), OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
  await llm?.close();
});

const db = () => t.server.ctx.db;
const newNumber = () => `4917200${String(Date.now()).slice(-5)}${String(++numbers).padStart(2, '0')}`;

async function repliesTo(to: string, n: number): Promise<string[]> {
  for (let i = 0; i < 600; i++) {
    const sent = fake.sentTo(to);
    if (sent.length >= n) return sent;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${n} replies to ${to}`);
}

/** A company with a ready manual and a connected number; its data manager signed in (English). */
async function connectedCompany() {
  const dm = await companyWithFile(t, MANUAL, 'Heizung');
  const proposal = (await dm.client.get('/whatsapp/connection')).body;
  const phoneNumberId = fake.addNumber(undefined, '+49 30 1234567');
  const saved = await dm.client.request('PUT', '/whatsapp/connection', {
    phoneNumberId,
    businessAccountId: '102290129340398',
    accessToken: fake.accessToken,
    appSecret: fake.appSecret,
    verifyToken: proposal.verifyToken,
  });
  expect(saved.status).toBe(200);
  const webhook = `${t.url}${new URL(saved.body.webhookUrl).pathname}`;
  const send = (from: string, text: string) =>
    fake.deliver(webhook, delivery(phoneNumberId, { messages: [textMessage(from, text)] }));
  return { dm, send };
}

/** The user's own confirmation, as the profile card and the phone do it. */
async function confirm(
  client: ApiClient,
  send: (from: string, text: string) => Promise<Response>,
  waId: string,
) {
  const issued = await client.post('/account/phone-verification');
  expect(issued.status).toBe(200);
  const before = fake.sentTo(waId).length;
  await send(waId, issued.body.code);
  const replies = await repliesTo(waId, before + 1);
  expect(replies.at(-1)).toBe(
    'Thank you, your number is confirmed. From now on I answer your questions here as you.',
  );
}

describe('a phone number on WhatsApp', () => {
  it('answers as its user only once confirmed from the number itself', async () => {
    const { dm, send } = await connectedCompany();
    const waId = newNumber();
    // Signed up with a number, which nobody has confirmed.
    expect((await dm.client.get('/account/phone-verification')).body.state).toBe('unverified');
    await dm.client.patch('/auth/me', { phone: null });
    expect((await dm.client.get('/account/phone-verification')).body).toMatchObject({ state: 'none' });
    expect((await dm.client.post('/account/phone-verification')).body.error.code).toBe('PHONE_MISSING');
    await dm.client.patch('/auth/me', { phone: `+${waId}` });
    expect((await dm.client.get('/account/phone-verification')).body).toEqual({
      phone: `+${waId}`,
      state: 'unverified',
      whatsappConnected: true,
      whatsappNumber: '+49 30 1234567',
      expiresAt: null,
    });

    // Not confirmed: the number is told how, in its user's language, and gets no answer from the documents.
    await send(waId, QUESTION);
    const [told] = await repliesTo(waId, 1);
    expect(told).toContain('has not been confirmed yet');
    expect(told).toContain(`${t.url}/account-settings/account`);
    expect(told).not.toContain('Vierkantschlüssel');

    const issued = await dm.client.post('/account/phone-verification');
    expect(issued.body).toMatchObject({
      code: expect.stringMatching(/^\d{6}$/),
      whatsappNumber: '+49 30 1234567',
      link: `https://wa.me/49301234567?text=${issued.body.code}`,
    });
    expect((await dm.client.get('/account/phone-verification')).body.state).toBe('pending');
    // The right code from another number confirms nothing.
    const other = newNumber();
    await send(other, issued.body.code);
    expect((await repliesTo(other, 1))[0]).toMatch(/^Hallo! Diese Nummer beantwortet nur Fragen des Teams/);
    await send(waId, `${issued.body.code.slice(0, 3)} ${issued.body.code.slice(3)}`);
    expect((await repliesTo(waId, 2))[1]).toBe(
      'Thank you, your number is confirmed. From now on I answer your questions here as you.',
    );
    expect((await dm.client.get('/account/phone-verification')).body.state).toBe('verified');
    await send(waId, QUESTION);
    expect((await repliesTo(waId, 3))[2]).toContain('Vierkantschlüssel');

    // A new number needs a new confirmation; the confirmed one, saved again, is still confirmed.
    const next = newNumber();
    await dm.client.patch('/auth/me', { phone: `+${next}` });
    expect((await dm.client.get('/account/phone-verification')).body.state).toBe('unverified');
    await dm.client.patch('/auth/me', { phone: `+${waId.slice(0, 2)} ${waId.slice(2)}` });
    expect((await dm.client.get('/account/phone-verification')).body.state).toBe('verified');
  });

  it('takes at most five codes for one confirmation, however many arrive at once', async () => {
    const { dm, send } = await connectedCompany();
    const waId = newNumber();
    await dm.client.patch('/auth/me', { phone: `+${waId}` });
    const { code } = (await dm.client.post('/account/phone-verification')).body;
    const wrong = (n: number) => String((Number(code) + n) % 1_000_000).padStart(6, '0');
    await Promise.all(Array.from({ length: 8 }, (_, i) => send(waId, wrong(i + 1))));
    const replies = await repliesTo(waId, 8);
    expect(replies.filter((r) => r.startsWith('This code does not match.'))).toHaveLength(5);
    expect(replies.filter((r) => r.includes('has not been confirmed yet'))).toHaveLength(3);
    // Spent: even the right code no longer confirms.
    await send(waId, code);
    expect((await repliesTo(waId, 9))[8]).toContain('has not been confirmed yet');
    expect((await dm.client.get('/account/phone-verification')).body.state).toBe('unverified');
  });

  it('limits new codes per user, and has nothing to confirm with for an operator', async () => {
    const { dm } = await connectedCompany();
    await dm.client.patch('/auth/me', { phone: `+${newNumber()}` });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => dm.client.post('/account/phone-verification')),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const limited = results.find((r) => r.status === 429)!;
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.post('/account/phone-verification')).body.error.code).toBe(
      'WHATSAPP_NOT_CONNECTED',
    );
    expect((await staff.client.get('/account/phone-verification')).body).toMatchObject({
      whatsappConnected: false,
    });
    expect((await t.client().get('/account/phone-verification')).status).toBe(401);
    expect((await t.client().post('/account/phone-verification')).status).toBe(401);
  });
});

describe('viewing as a user', () => {
  it('cannot plant a phone number that answers as them afterwards', async () => {
    const { dm, send } = await connectedCompany();
    const own = newNumber();
    await dm.client.patch('/auth/me', { phone: `+${own}` });
    await confirm(dm.client, send, own);

    const admin = await signedInAdmin(t);
    admin.language = 'en';
    await admin.post('/admin/impersonation', { userId: (await dm.client.get('/auth/me')).body.userData.id });
    const attacker = newNumber();
    const planted = await admin.patch('/auth/me', { phone: `+${attacker}` });
    expect(planted.status).toBe(403);
    expect(planted.body.error).toMatchObject({
      code: 'IMPERSONATION_RESTRICTED',
      message: expect.stringContaining('phone number'),
    });
    // Saving the other details with the number unchanged still works; so does leaving it out.
    expect((await admin.patch('/auth/me', { phone: `+${own}`, language: 'de' })).status).toBe(200);
    expect((await admin.patch('/auth/me', { language: 'en' })).status).toBe(200);
    expect((await admin.post('/account/phone-verification')).body.error.code).toBe(
      'IMPERSONATION_RESTRICTED',
    );
    await admin.post('/auth/impersonation/end');

    await send(attacker, QUESTION);
    const [reply] = await repliesTo(attacker, 1);
    expect(reply).not.toContain('Vierkantschlüssel');
    expect((await dm.client.get('/account/phone-verification')).body).toMatchObject({
      phone: `+${own}`,
      state: 'verified',
    });
  });

  it("cannot change an employee's number as their data manager either; a number set by someone else is unconfirmed", async () => {
    const { dm, send } = await connectedCompany();
    const employee = await dm.client.post('/employees', {
      email: `kai-${Date.now()}@firma.example`,
      firstName: 'Kai',
      lastName: 'Berg',
      language: 'en',
      divisionIds: [dm.divisionId],
    });
    expect(employee.status).toBe(201);
    const number = newNumber();
    expect((await dm.client.patch(`/employees/${employee.body.id}`, { phone: `+${number}` })).status).toBe(
      200,
    );
    await send(number, QUESTION);
    expect((await repliesTo(number, 1))[0]).toContain('has not been confirmed yet');

    const admin = await signedInAdmin(t);
    await admin.post('/admin/impersonation', { userId: (await dm.client.get('/auth/me')).body.userData.id });
    const changed = await admin.patch(`/employees/${employee.body.id}`, { phone: `+${newNumber()}` });
    expect(changed.body.error.code).toBe('IMPERSONATION_RESTRICTED');
    expect((await admin.patch(`/employees/${employee.body.id}`, { lastName: 'Berger' })).status).toBe(200);
    await admin.post('/auth/impersonation/end');
    const { rows } = await db().execute<{ phone: string }>(
      sql`select phone from users where id = ${employee.body.id}`,
    );
    expect(rows[0]!.phone).toBe(`+${number}`);
  });
});
