import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import {
  delivery,
  FakeWhatsApp,
  statusUpdate,
  textMessage,
  voiceMessage,
} from '../../../test/support/fake-whatsapp.ts';
import { companyWithFile, employeeOf } from '../../../test/support/knowledge.ts';
import { refuseFirstSend } from '../../../test/support/refused-send.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { whatsappInboundJob } from './whatsapp-inbound.job.ts';
import { whatsappReplyJob } from './whatsapp-reply.job.ts';
import { requeueStrandedWhatsApp } from './whatsapp-requeue.job.ts';

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';
const SECRET_MANUAL =
  'Der Tresor im Lager wird mit dem Zahlencode aus dem Schichtbuch geöffnet. Der Schlüssel hängt im Büro.';

const fake = new FakeWhatsApp();
let llm: FakeLlm;
let t: TestServer;
let numbers = 0;

beforeAll(async () => {
  await fake.start();
  llm = await startFakeLlm();
  // One public question per number and hour: the second from a stranger meets the public chat's limit.
  t = await startTestServer({
    env: { ...fake.env(), OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', PUBLIC_CHAT_QUESTIONS_PER_HOUR: '1' },
  });
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
  await llm?.close();
});

const db = () => t.server.ctx.db;
/** A fresh WhatsApp number (Meta's `wa_id`: digits with the country code). */
const newNumber = () => `4915100${String(Date.now()).slice(-5)}${String(++numbers).padStart(2, '0')}`;

/** Polls until the condition holds (the webhook only stores; jobs answer). */
async function until<T>(what: string, read: () => T | Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const repliesTo = (to: string, n: number) =>
  until(
    `${n} replies to ${to}`,
    () => fake.sentTo(to),
    (s) => s.length >= n,
  );

interface Connected {
  client: ApiClient;
  phoneNumberId: string;
  webhook: string;
  verifyToken: string;
}

/** Connects the data manager's company to a number of the double, as the connect dialog does. */
async function connect(client: ApiClient, extra: Record<string, unknown> = {}): Promise<Connected> {
  const proposal = (await client.get('/whatsapp/connection')).body;
  const phoneNumberId = fake.addNumber();
  const saved = await client.request('PUT', '/whatsapp/connection', {
    phoneNumberId,
    businessAccountId: '102290129340398',
    accessToken: fake.accessToken,
    appSecret: fake.appSecret,
    verifyToken: proposal.verifyToken,
    ...extra,
  });
  expect(saved.status).toBe(200);
  const path = new URL(saved.body.webhookUrl).pathname;
  return { client, phoneNumberId, webhook: `${t.url}${path}`, verifyToken: saved.body.verifyToken };
}

/**
 * Saves a number as the signed-in user's phone (their WhatsApp contact), confirmed as if from the phone (the
 * confirmation itself: phone-verification.test.ts).
 */
async function savePhone(client: ApiClient, waId: string) {
  const me = (await client.get('/auth/me')).body.userData;
  await db().execute(
    sql`update users set phone = ${`+${waId}`}, phone_verified_digits = ${waId} where id = ${me.id}`,
  );
  return me.id as string;
}

async function companyConnected(text = MANUAL, extra: Record<string, unknown> = {}) {
  const dm = await companyWithFile(t, text, 'Heizung');
  const connection = await connect(dm.client, extra);
  return { dm, ...connection };
}

const inboundOf = (waMessageId: string) =>
  db().execute<{ id: string; status: string; company_id: string }>(
    sql`select id, status, company_id from whatsapp_messages where direction = 'in' and wa_message_id = ${waMessageId}`,
  );

describe('the connection', () => {
  it('seals the secrets, shows them masked and tests the number against the Graph API', async () => {
    const { client, phoneNumberId } = await companyConnected();
    const shown = (await client.get('/whatsapp/connection')).body;
    expect(shown).toMatchObject({ connected: true, phoneNumberId, unknownNumbers: 'refuse' });
    expect(JSON.stringify(shown)).not.toContain(fake.accessToken);
    expect(JSON.stringify(shown)).not.toContain(fake.appSecret);
    expect(shown.accessTokenHint).toBe(`…${fake.accessToken.slice(-4)}`);
    const { rows } = await db().execute<{ access_token_encrypted: string; app_secret_encrypted: string }>(
      sql`select access_token_encrypted, app_secret_encrypted from whatsapp_connections
        where phone_number_id = ${phoneNumberId}`,
    );
    expect(rows[0]!.access_token_encrypted).not.toContain(fake.accessToken);
    expect(rows[0]!.app_secret_encrypted).not.toContain(fake.appSecret);

    const test = await client.post('/whatsapp/connection/test', { phoneNumberId });
    expect(test.body).toEqual({
      ok: true,
      displayPhoneNumber: '+49 30 1234567',
      verifiedName: 'Firma Test',
      message: null,
    });
    const wrong = await client.post('/whatsapp/connection/test', {
      phoneNumberId,
      accessToken: 'EAAGwrong-token',
    });
    expect(wrong.body).toMatchObject({ ok: false, message: 'Meta refused the access token.' });
  });

  it('refuses a number another company connected, and a public chat that is not one', async () => {
    const a = await companyConnected();
    const b = await companyWithFile(t, MANUAL);
    const proposal = (await b.client.get('/whatsapp/connection')).body;
    const body = {
      phoneNumberId: a.phoneNumberId,
      businessAccountId: '102290129340398',
      accessToken: fake.accessToken,
      appSecret: fake.appSecret,
      verifyToken: proposal.verifyToken,
    };
    const taken = await b.client.request('PUT', '/whatsapp/connection', body);
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('WHATSAPP_NUMBER_IN_USE');
    const privateChat = await b.client.post('/chats', { name: 'Intern', divisionIds: [b.divisionId] });
    const noPublic = await b.client.request('PUT', '/whatsapp/connection', {
      ...body,
      phoneNumberId: '5550001112223',
      unknownNumbers: 'publicChat',
      publicChatId: privateChat.body.id,
    });
    expect(noPublic.body.error.code).toBe('WHATSAPP_PUBLIC_CHAT_INVALID');
  });
});

describe('claiming a number', () => {
  it("is refused with a made-up token or another business's number, before anything is saved", async () => {
    const squatter = await companyWithFile(t, MANUAL);
    const proposal = (await squatter.client.get('/whatsapp/connection')).body;
    const someonesNumber = fake.addNumber(undefined, '+49 89 7654321');
    const body = {
      phoneNumberId: someonesNumber,
      businessAccountId: '102290129340398',
      accessToken: 'EAAGmade-up-token-0123456789',
      appSecret: 'made-up-app-secret',
      verifyToken: proposal.verifyToken,
    };
    const madeUp = await squatter.client.request('PUT', '/whatsapp/connection', body);
    expect(madeUp.status).toBe(422);
    expect(madeUp.body.error).toMatchObject({ code: 'WHATSAPP_NUMBER_REFUSED', details: { code: 190 } });
    const notTheirs = await squatter.client.request('PUT', '/whatsapp/connection', {
      ...body,
      phoneNumberId: '5550001112223',
      accessToken: fake.accessToken,
    });
    expect(notTheirs.body.error).toMatchObject({ code: 'WHATSAPP_NUMBER_REFUSED', details: { code: 100 } });
    expect((await squatter.client.get('/whatsapp/connection')).body.connected).toBe(false);

    // The number's business connects it; a later made-up token is refused and the saved one kept.
    const owner = await companyWithFile(t, MANUAL);
    const own = (await owner.client.get('/whatsapp/connection')).body;
    const saved = await owner.client.request('PUT', '/whatsapp/connection', {
      ...body,
      accessToken: fake.accessToken,
      verifyToken: own.verifyToken,
    });
    expect(saved.status).toBe(200);
    // Meta's answer names the number its users confirm their phones with.
    const { rows } = await db().execute<{ display_phone_number: string }>(
      sql`select display_phone_number from whatsapp_connections where phone_number_id = ${someonesNumber}`,
    );
    expect(rows[0]!.display_phone_number).toBe('+49 89 7654321');
    const swapped = await owner.client.request('PUT', '/whatsapp/connection', {
      ...body,
      verifyToken: own.verifyToken,
    });
    expect(swapped.body.error.code).toBe('WHATSAPP_NUMBER_REFUSED');
    expect((await owner.client.get('/whatsapp/connection')).body.accessTokenHint).toBe(
      `…${fake.accessToken.slice(-4)}`,
    );
  });
});

describe('the webhook', () => {
  it('answers the verification handshake with the challenge, and nothing else', async () => {
    const { webhook, verifyToken } = await companyConnected();
    const ok = await fetch(
      `${webhook}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(
      `${webhook}?hub.mode=subscribe&hub.verify_token=wrong-token-000000&hub.challenge=1`,
    );
    expect(wrong.status).toBe(403);
    const mode = await fetch(
      `${webhook}?hub.mode=unsubscribe&hub.verify_token=${verifyToken}&hub.challenge=1`,
    );
    expect(mode.status).toBe(403);
  });

  it('refuses missing and wrong signatures with 401 and stores nothing', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const message = textMessage(newNumber(), 'Womit wird der Heizkörper entlüftet?');
    const payload = delivery(phoneNumberId, { messages: [message] });
    expect((await fake.deliver(webhook, payload, null)).status).toBe(401);
    expect(
      (await fake.deliver(webhook, payload, fake.signature(JSON.stringify(payload), 'another-secret')))
        .status,
    ).toBe(401);
    expect((await fake.deliver(webhook, payload, 'sha256=00')).status).toBe(401);
    // The signature is over the raw bytes: the same JSON written differently does not match.
    const raw = JSON.stringify(payload, null, 1);
    const rewritten = await fetch(webhook, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': fake.signature(JSON.stringify(payload)),
      },
      body: raw,
    });
    expect(rewritten.status).toBe(401);
    const { rows } = await db().execute(
      sql`select 1 from whatsapp_messages where company_id = ${await companyOf(dm.client)}`,
    );
    expect(rows).toEqual([]);
    expect((await inboundOf(String(message.id))).rows).toEqual([]);
  });

  it("keeps another company's key from reaching this company", async () => {
    const a = await companyConnected();
    const b = await companyConnected();
    const waId = newNumber();
    await savePhone(a.client, waId);
    // B's address and B's secret, but A's number in the payload: B's number does not match, nothing happens.
    const message = textMessage(waId, 'Womit wird der Heizkörper entlüftet?');
    const res = await fake.deliver(b.webhook, delivery(a.phoneNumberId, { messages: [message] }));
    expect(res.status).toBe(200);
    expect((await inboundOf(String(message.id))).rows).toEqual([]);
    // A's delivery posted to an address that does not exist is refused.
    const unknown = await fake.deliver(
      `${t.url}/api/v1/webhooks/whatsapp/not-a-company-key-000`,
      delivery(a.phoneNumberId, { messages: [message] }),
    );
    expect(unknown.status).toBe(401);
    expect(fake.sentTo(waId)).toEqual([]);
  });
});

async function companyOf(client: ApiClient): Promise<string> {
  return (await client.get('/auth/me')).body.userData.companyId as string;
}

describe('answering', () => {
  it('answers a duplicated delivery once, marks it read and quotes it, in the question’s language', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const waId = newNumber();
    await savePhone(dm.client, waId);
    const message = textMessage(waId, 'Womit wird der Heizkörper entlüftet?');
    const payload = delivery(phoneNumberId, { messages: [message] });
    const [first, second] = await Promise.all([
      fake.deliver(webhook, payload),
      fake.deliver(webhook, payload),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const [reply] = await repliesTo(waId, 1);
    expect(reply).toContain('Vierkantschlüssel');
    expect(reply).toContain('Quellen:\n[1] Heizung.docx');
    expect(reply).toMatch(/In der Web-App öffnen: http.*\/chat\?chat=[0-9a-f-]{36}/);
    expect(fake.sent.find((s) => s.to === waId)!.replyTo).toBe(message.id);
    expect(fake.read).toContain(message.id);
    // A third delivery of the same message, after the answer: still one answer.
    expect((await fake.deliver(webhook, payload)).status).toBe(200);
    await until(
      'the inbound row answered',
      () => inboundOf(String(message.id)),
      (r) => r.rows[0]?.status === 'answered',
    );
    expect(fake.sentTo(waId)).toHaveLength(1);
  });

  it('answers a message whose job could not be queued when Meta delivers it again', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const waId = newNumber();
    await savePhone(dm.client, waId);
    const message = textMessage(waId, 'Womit wird der Heizkörper entlüftet?');
    const payload = delivery(phoneNumberId, { messages: [message] });
    // The job queue refuses the first send, as pg-boss does when its connections stay busy past their wait.
    const refusal = refuseFirstSend(t.server.ctx.jobs, whatsappInboundJob);
    const first = await fake.deliver(webhook, payload).finally(() => {
      refusal.restore();
    });
    expect(refusal.refused()).toBe(1);
    // Stored, not queued: Meta is told to deliver again.
    expect(first.status).toBe(500);
    expect((await inboundOf(String(message.id))).rows[0]?.status).toBe('received');
    expect((await fake.deliver(webhook, payload)).status).toBe(200);
    const [reply] = await repliesTo(waId, 1);
    expect(reply).toContain('Vierkantschlüssel');
    await until(
      'the inbound row answered',
      () => inboundOf(String(message.id)),
      (r) => r.rows[0]?.status === 'answered',
    );
    expect(fake.sentTo(waId)).toHaveLength(1);
  });

  it('sends a reply whose job could not be queued once the WhatsApp sweep finds it, once', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const waId = newNumber();
    await savePhone(dm.client, waId);
    const message = textMessage(waId, 'Womit wird der Heizkörper entlüftet?');
    // The job queue refuses the reply's send once, after the answer is stored.
    const refusal = refuseFirstSend(t.server.ctx.jobs, whatsappReplyJob);
    try {
      expect((await fake.deliver(webhook, delivery(phoneNumberId, { messages: [message] }))).status).toBe(
        200,
      );
      await until(
        'the inbound row answered',
        () => inboundOf(String(message.id)),
        (r) => r.rows[0]?.status === 'answered',
      );
      await until('the refused send', refusal.refused, (n) => n === 1);
    } finally {
      refusal.restore();
    }
    const inboundId = (await inboundOf(String(message.id))).rows[0]!.id;
    expect(fake.sentTo(waId)).toHaveLength(0);
    // Stored less than a minute ago, its job may still be on its way: the sweep leaves it.
    expect(await requeueStrandedWhatsApp(t.server.ctx)).toBe(0);
    await db().execute(
      sql`update whatsapp_messages set created_at = now() - interval '2 minutes' where reply_to = ${inboundId}`,
    );
    expect(await requeueStrandedWhatsApp(t.server.ctx)).toBe(1);
    // With its job now waiting, running or done, a second sweep does not queue it again.
    expect(await requeueStrandedWhatsApp(t.server.ctx)).toBe(0);
    const [reply] = await repliesTo(waId, 1);
    expect(reply).toContain('Vierkantschlüssel');
    expect(fake.sentTo(waId)).toHaveLength(1);
  });

  it('answers a batch of three messages from two users, each as themselves, keeping one thread each', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const manager = newNumber();
    const worker = newNumber();
    const employee = await employeeOf(t, dm, [dm.divisionId]);
    await savePhone(dm.client, manager);
    const employeeId = await savePhone(employee, worker);
    const res = await fake.deliver(
      webhook,
      delivery(phoneNumberId, {
        messages: [
          textMessage(manager, 'Womit wird der Heizkörper entlüftet?'),
          textMessage(worker, 'Wie hoch muss der Wasserdruck sein?'),
          textMessage(manager, 'Und der Wasserdruck?'),
        ],
      }),
    );
    expect(res.status).toBe(200);
    await repliesTo(manager, 2);
    const [toWorker] = await repliesTo(worker, 1);
    expect(toWorker).toContain('1,5 bar');
    // Each user has their one WhatsApp chat with one thread; the web chat list shows it with its source.
    const { rows } = await db().execute<{ owner_id: string; threads: number; questions: number }>(sql`
      select c.owner_id, count(distinct t.id)::int as threads,
        count(m.id) filter (where m.role = 'user')::int as questions
      from chats c join chat_threads t on t.chat_id = c.id join chat_messages m on m.thread_id = t.id
      where c.source = 'whatsapp' and c.company_id = ${await companyOf(dm.client)} group by c.owner_id`);
    expect(rows.map((r) => [r.threads, r.questions]).sort()).toEqual([
      [1, 1],
      [1, 2],
    ]);
    expect(rows.find((r) => r.owner_id === employeeId)?.questions).toBe(1);
    const listed = (await employee.get('/chats')).body.items;
    expect(listed).toEqual([
      expect.objectContaining({ name: 'WhatsApp', source: 'whatsapp', messageCount: 2, canAsk: true }),
    ]);
    // It answers from everything its owner may read, so it is never shared.
    const published = await employee.request('PATCH', `/chats/${listed[0].id}`, { visibility: 'public' });
    expect(published.status).toBe(409);
    expect(published.body.error.code).toBe('CHAT_WHATSAPP_PRIVATE');
    // Feedback is given in the web app like on any answer.
    const messages = (await employee.get(`/chats/${listed[0].id}/messages`)).body.items;
    const answer = messages.find((m: { role: string }) => m.role === 'assistant');
    expect((await employee.request('PUT', `/messages/${answer.id}/feedback`, { liked: true })).status).toBe(
      200,
    );
  });

  it('stores status updates on the sent message and never takes them for questions', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const waId = newNumber();
    await savePhone(dm.client, waId);
    await fake.deliver(
      webhook,
      delivery(phoneNumberId, { messages: [textMessage(waId, 'Womit wird der Heizkörper entlüftet?')] }),
    );
    await repliesTo(waId, 1);
    const sentId = fake.sent.find((s) => s.to === waId)!.id;
    const status = (id: string) =>
      db().execute<{ status: string }>(
        sql`select status from whatsapp_messages where wa_message_id = ${id} and direction = 'out'`,
      );
    await until(
      'the reply stored as sent',
      () => status(sentId),
      (r) => r.rows[0]?.status === 'sent',
    );
    await fake.deliver(webhook, delivery(phoneNumberId, { statuses: [statusUpdate(sentId, 'read')] }));
    // An older update arriving late does not move it back.
    await fake.deliver(webhook, delivery(phoneNumberId, { statuses: [statusUpdate(sentId, 'delivered')] }));
    expect((await status(sentId)).rows[0]?.status).toBe('read');
    const { rows } = await db().execute(
      sql`select 1 from whatsapp_messages where direction = 'in' and company_id = ${await companyOf(dm.client)}`,
    );
    expect(rows).toHaveLength(1);
    expect(fake.sentTo(waId)).toHaveLength(1);
  });

  it('transcribes a voice note, quotes the transcript and answers it', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const saved = await dm.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: 'sk-test-0123456789abcdef',
      model: 'gpt-4o-mini',
      transcriptionModel: 'whisper-1',
    });
    expect(saved.status).toBe(200);
    const waId = newNumber();
    await savePhone(dm.client, waId);
    // The double's transcript of UTF-8 bytes is their text: the voice note "says" the question.
    const mediaId = fake.addMedia(Buffer.from('Womit wird der Heizkörper entlüftet?'));
    await fake.deliver(webhook, delivery(phoneNumberId, { messages: [voiceMessage(waId, mediaId)] }));
    const [reply] = await repliesTo(waId, 1);
    expect(reply).toMatch(/^🎤 Ihre Frage: „Womit wird der Heizkörper entlüftet\?“/);
    expect(reply).toContain('Vierkantschlüssel');
    const download = fake.calls.find((c) => c.path === `/media/${mediaId}`);
    expect(download?.authorization).toBe(`Bearer ${fake.accessToken}`);
  });

  it('splits a long answer on sentence boundaries into messages WhatsApp accepts', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    await dm.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: 'sk-test-0123456789abcdef',
      model: 'gpt-4o-mini',
      isDefault: true,
    });
    const sentence =
      'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet, wie es im Handbuch steht [1]. ';
    llm.setScript({ text: sentence.repeat(100).trim() });
    const waId = newNumber();
    await savePhone(dm.client, waId);
    await fake.deliver(
      webhook,
      delivery(phoneNumberId, { messages: [textMessage(waId, 'Womit wird der Heizkörper entlüftet?')] }),
    );
    // Every part of the reply stored, none still waiting to be sent.
    const stored = await until(
      'the reply sent',
      () =>
        db().execute<{ status: string }>(
          sql`select status from whatsapp_messages where direction = 'out' and contact = ${waId} order by part`,
        ),
      (r) => r.rows.length > 0 && r.rows.every((row) => row.status === 'sent'),
    );
    const parts = fake.sentTo(waId);
    expect(parts.length).toBe(stored.rows.length);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
    for (const part of parts.slice(0, -1)) expect(part.endsWith('[1].')).toBe(true);
    expect(parts.join(' ').split('Vierkantschlüssel').length - 1).toBe(100);
    expect(parts.at(-1)).toContain('In der Web-App öffnen');
  });

  it('retries a pair rate limit and gives up outside the 24-hour window', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const waId = newNumber();
    await savePhone(dm.client, waId);
    fake.failNext(131056);
    await fake.deliver(
      webhook,
      delivery(phoneNumberId, { messages: [textMessage(waId, 'Womit wird der Heizkörper entlüftet?')] }),
    );
    expect((await repliesTo(waId, 1))[0]).toContain('Vierkantschlüssel');

    fake.failNext(131047);
    const closed = textMessage(waId, 'Wie hoch muss der Wasserdruck sein?');
    await fake.deliver(webhook, delivery(phoneNumberId, { messages: [closed] }));
    const failed = await until(
      'the reply failed with 131047',
      () =>
        db().execute<{
          status: string;
          error_code: string;
        }>(sql`select o.status, o.error_code from whatsapp_messages o
          join whatsapp_messages i on i.id = o.reply_to where i.wa_message_id = ${String(closed.id)}`),
      (r) => r.rows[0]?.status === 'failed',
    );
    expect(failed.rows[0]!.error_code).toBe('131047');

    const old = textMessage(waId, 'Womit wird der Heizkörper entlüftet?', {
      timestamp: Math.floor(Date.now() / 1000) - 25 * 3600,
    });
    await fake.deliver(webhook, delivery(phoneNumberId, { messages: [old] }));
    await until(
      'the old message expired',
      () => inboundOf(String(old.id)),
      (r) => r.rows[0]?.status === 'expired',
    );
    expect(fake.sentTo(waId)).toHaveLength(1);
  });
});

describe('unknown numbers', () => {
  it('are refused politely by default', async () => {
    const { webhook, phoneNumberId } = await companyConnected();
    const stranger = newNumber();
    await fake.deliver(
      webhook,
      delivery(phoneNumberId, { messages: [textMessage(stranger, 'Womit wird der Heizkörper entlüftet?')] }),
    );
    const [reply] = await repliesTo(stranger, 1);
    expect(reply).toMatch(/^Hallo! Diese Nummer beantwortet nur Fragen des Teams/);
    expect(reply).not.toContain('Vierkantschlüssel');
  });

  it('are told, in the language of the number’s country, which number to check in the account', async () => {
    const { webhook, phoneNumberId } = await companyConnected();
    const stranger = `4851234${String(++numbers).padStart(4, '0')}`;
    await fake.deliver(webhook, delivery(phoneNumberId, { messages: [textMessage(stranger, 'Hi')] }));
    const [reply] = await repliesTo(stranger, 1);
    expect(reply).toMatch(/^Dzień dobry! Ten numer odpowiada tylko zespołowi tej firmy/);
    expect(reply).toContain(`(\u2066+48 512 34${stranger.slice(-4, -3)} ${stranger.slice(-3)}\u2069)`);
    expect(reply).toContain('z kierunkowym kraju');
  });

  it('answers a user who typed the number with the trunk zero and confirmed it', async () => {
    const { dm, webhook, phoneNumberId } = await companyConnected();
    const waId = `4915123${String(++numbers).padStart(6, '0')}`;
    const typed = `+49 0${waId.slice(2, 5)} ${waId.slice(5)}`;
    const saved = await dm.client.patch('/auth/me', { phone: typed });
    expect(saved.status).toBe(200);
    expect((await dm.client.get('/account/phone-verification')).body.phone).toBe(`+${waId}`);
    const issued = await dm.client.post('/account/phone-verification');
    const send = (text: string) =>
      fake.deliver(webhook, delivery(phoneNumberId, { messages: [textMessage(waId, text)] }));
    await send(issued.body.code);
    expect((await repliesTo(waId, 1))[0]).toMatch(/your number is confirmed/);
    await send('Womit wird der Heizkörper entlüftet?');
    expect((await repliesTo(waId, 2))[1]).toContain('Vierkantschlüssel');
  });

  it('are answered from the chosen public chat as public users when the company says so', async () => {
    const dm = await companyWithFile(t, MANUAL, 'Heizung');
    const chat = await dm.client.post('/chats', {
      name: 'Service',
      visibility: 'public',
      divisionIds: [dm.divisionId],
    });
    const { webhook, phoneNumberId } = await connect(dm.client, {
      unknownNumbers: 'publicChat',
      publicChatId: chat.body.id,
    });
    const stranger = newNumber();
    await fake.deliver(
      webhook,
      delivery(phoneNumberId, {
        messages: [textMessage(stranger, 'Womit wird der Heizkörper entlüftet?')],
        names: { [stranger]: 'Erika Muster' },
      }),
    );
    const [reply] = await repliesTo(stranger, 1);
    expect(reply).toContain('Vierkantschlüssel');
    const { rows } = await db().execute<{ name: string; phone: string }>(
      sql`select name, phone from chat_visitors where chat_id = ${chat.body.id}`,
    );
    expect(rows).toEqual([{ name: 'Erika Muster', phone: `+${stranger}` }]);
    // Like a visitor of the link, a stranger spends the public chat's question limits.
    await fake.deliver(
      webhook,
      delivery(phoneNumberId, { messages: [textMessage(stranger, 'Wie hoch muss der Wasserdruck sein?')] }),
    );
    const [, limited] = await repliesTo(stranger, 2);
    expect(limited).toMatch(/^Zu viele Versuche\. Bitte versuchen Sie es in \d+ Sekunden erneut\.$/);
  });
});

describe('access', () => {
  it('stops giving a division’s passages to a user removed from it', async () => {
    const dm = await companyWithFile(t, SECRET_MANUAL, 'Lager');
    const { webhook, phoneNumberId } = await connect(dm.client);
    const other = (await dm.client.post('/divisions', { name: 'Büro' })).body.id as string;
    const employee = await employeeOf(t, dm, [dm.divisionId]);
    const waId = newNumber();
    const employeeId = await savePhone(employee, waId);
    const ask = () =>
      fake.deliver(
        webhook,
        delivery(phoneNumberId, { messages: [textMessage(waId, 'Wie wird der Tresor im Lager geöffnet?')] }),
      );
    await ask();
    expect((await repliesTo(waId, 1))[0]).toContain('Zahlencode');
    const moved = await dm.client.request('PATCH', `/employees/${employeeId}`, { divisionIds: [other] });
    expect(moved.status).toBe(200);
    await ask();
    const [, second] = await repliesTo(waId, 2);
    expect(second).not.toContain('Zahlencode');
  });
});
