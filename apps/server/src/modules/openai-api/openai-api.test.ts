import { and, eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertDivision, insertPassage } from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog, chats, subscriptions, users } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

/**
 * The OpenAI-compatible door, asked with the official `openai` client as any tool would: a personal API key acts as
 * its user (their chats and divisions, nothing more), the answers come from the chat's own pipeline with citations,
 * streamed and not, and every refusal is OpenAI's error body with our code, in the key user's language.
 */
let t: TestServer;
let llm: FakeLlm;
const db = () => t.server.ctx.db;

const MANUAL = 'Den Heizkörper entlüften Sie mit dem Vierkantschlüssel am oberen Ventil.';
const QUESTION = 'Womit entlüfte ich den Heizkörper?';

interface Company {
  companyId: string;
  userId: string;
  chatId: string;
  openai: OpenAI;
  keyId: string;
  session: Awaited<ReturnType<typeof signedInAs>>['client'];
}

let a: Company;
let b: Company;

/** A personal API key of a signed-in user, and an OpenAI client that uses it against the test server. */
async function keyOf(session: Company['session']) {
  const created = await session.post('/api-keys', { name: 'OpenAI' });
  expect(created.status).toBe(201);
  const openai = new OpenAI({
    apiKey: created.body.token,
    baseURL: `${t.url}/api/v1/openai/v1`,
    maxRetries: 0,
  });
  return { openai, keyId: created.body.apiKey.id as string };
}

/** A data manager of a new company with one ready manual in one division and a chat over it. */
async function company(): Promise<Company> {
  const dm = await signedInAs(t, 'DataManager');
  const division = await insertDivision(t, dm.companyId!, 'Heizung');
  await insertPassage(t, {
    companyId: dm.companyId!,
    divisionId: division.id,
    fileName: 'Heizung.pdf',
    text: MANUAL,
    page: 3,
  });
  const chat = await dm.client.post('/chats', { name: 'Heizung', divisionIds: [division.id] });
  expect(chat.status).toBe(201);
  return {
    companyId: dm.companyId!,
    userId: dm.user.id,
    chatId: chat.body.id,
    session: dm.client,
    ...(await keyOf(dm.client)),
  };
}

beforeAll(async () => {
  llm = await startFakeLlm();
  // API only (nothing here needs the worker); the fake provider listens on 127.0.0.1, which the outbound policy
  // refuses unless allowed.
  t = await startTestServer({ smtp: false, role: 'api', env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
  a = await company();
  b = await company();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

const ask = (c: Company, model = 'werkwissen') =>
  c.openai.chat.completions.create({
    model,
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: QUESTION },
    ],
    temperature: 0.2,
  });

describe('the models a key may ask', () => {
  it('lists the company default and each chat of the key’s user, none of another company', async () => {
    const ids = [];
    for await (const model of a.openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(['werkwissen', `chat-${a.chatId}`]);
    const other = [];
    for await (const model of b.openai.models.list()) other.push(model.id);
    expect(other).not.toContain(`chat-${a.chatId}`);
  });
});

describe('a cited answer with the built-in answerer', () => {
  it('answers without streaming, with [n] markers, the citations and the usage', async () => {
    const completion = await ask(a);
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('werkwissen');
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.role).toBe('assistant');
    expect(choice.message.content).toContain('Vierkantschlüssel');
    expect(choice.message.content).toContain('[1]');
    const extended = completion as typeof completion & { citations: Array<Record<string, unknown>> };
    expect(extended.citations[0]).toMatchObject({
      n: 1,
      file_name: 'Heizung.pdf',
      page: 3,
      text: MANUAL,
    });
    expect(completion.usage).toMatchObject({ questions: 1, questions_per_month: null });
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it('streams chunks as OpenAI does, the citations on the last, then usage and [DONE]', async () => {
    const stream = await a.openai.chat.completions.create({
      model: `chat-${a.chatId}`,
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('Vierkantschlüssel');
    expect(text).toContain('[1]');
    const last = chunks.at(-2)! as (typeof chunks)[number] & { citations: Array<Record<string, unknown>> };
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(last.citations[0]).toMatchObject({ n: 1, file_name: 'Heizung.pdf', page: 3 });
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toMatchObject({ questions: 1 });

    // On the wire: only `data:` lines, the last one `[DONE]`.
    const raw = await fetch(`${t.url}/api/v1/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.openai.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'werkwissen',
        messages: [{ role: 'user', content: QUESTION }],
        stream: true,
      }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await raw.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
  });

  it('keeps the questions in the user’s API chat, counts them for the key, and logs every call', async () => {
    const list = await a.session.get('/chats?pageSize=100');
    const apiChat = list.body.items.find((c: { source: string }) => c.source === 'api');
    expect(apiChat).toMatchObject({ name: 'API', visibility: 'private', messageCount: 4 });
    // It answers from everything its owner may read: it is never shared.
    const shared = await a.session.patch(`/chats/${apiChat.id}`, { visibility: 'public' });
    expect(shared.body.error.code).toBe('CHAT_API_PRIVATE');

    const keys = await a.session.get('/api-keys');
    expect(keys.body.items.find((k: { id: string }) => k.id === a.keyId).questionCount).toBe(3);

    await vi.waitFor(async () => {
      await t.server.ctx.activity.flush();
      const rows = await db()
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.actorUserId, a.userId), eq(activityLog.action, 'createChatCompletion')));
      expect(rows.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    });
    await vi.waitFor(async () => {
      await t.server.ctx.activity.flush();
      const listed = await db()
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.actorUserId, a.userId), eq(activityLog.action, 'listOpenAiModels')));
      expect(listed).toHaveLength(1);
    });
  });
});

describe('a cited answer from a configured provider', () => {
  it('streams the model’s answer through OpenAI’s wire protocol, with the conversation the request carries', async () => {
    const saved = await b.session.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: 'sk-test-0123456789abcdef',
      model: 'gpt-4o-mini',
    });
    expect(saved.status).toBe(200);
    await db().update(chats).set({ provider: 'openai' }).where(eq(chats.id, b.chatId));
    llm.setScript({ text: 'Mit dem Vierkantschlüssel [1].', tokensPerChunk: 1 });
    const stream = await b.openai.chat.completions.create({
      model: `chat-${b.chatId}`,
      messages: [
        { role: 'user', content: 'Was steht im Handbuch zur Heizung?' },
        { role: 'assistant', content: 'Es erklärt das Entlüften [1].' },
        { role: 'user', content: QUESTION },
      ],
      stream: true,
    });
    let text = '';
    let citations: Array<Record<string, unknown>> = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      const extended = chunk as typeof chunk & { citations?: Array<Record<string, unknown>> };
      if (extended.citations) citations = extended.citations;
    }
    expect(text).toBe('Mit dem Vierkantschlüssel [1].');
    expect(citations).toEqual([expect.objectContaining({ n: 1, file_name: 'Heizung.pdf' })]);
    const call = llm.requests.filter((r) => r.route === 'chat').at(-1)!;
    const sent = (call.body.messages as Array<{ role: string; content: string }>).filter(
      (m) => m.role !== 'system',
    );
    expect(sent.map((m) => m.content)).toEqual([
      'Was steht im Handbuch zur Heizung?',
      'Es erklärt das Entlüften [1].',
      QUESTION,
    ]);
    expect(JSON.stringify(call.body.messages)).toContain('Vierkantschlüssel');
  });
});

describe('a provider that fails mid-answer', () => {
  it('ends the stream with OpenAI’s in-stream error, and answers 502 without streaming', async () => {
    llm.setScript({ text: 'Mit dem Vierkantschlüssel am oberen Ventil [1].', streamErrorAfter: 2 });
    const stream = await b.openai.chat.completions.create({
      model: `chat-${b.chatId}`,
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
    });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'PROVIDER_STREAM_INTERRUPTED',
      type: 'server_error',
    });
    // What the provider wrote before it failed reached the client first.
    expect(text).toBe('Mit dem');

    const whole = await ask(b, `chat-${b.chatId}`).catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(OpenAI.InternalServerError);
    expect((whole as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });
});

describe('refusals in OpenAI’s error body', () => {
  it('refuses an unknown key (401)', async () => {
    const stranger = new OpenAI({
      apiKey: 'ww_not-a-key',
      baseURL: `${t.url}/api/v1/openai/v1`,
      maxRetries: 0,
    });
    const error = await stranger.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'UNAUTHENTICATED',
      type: 'authentication_error',
      param: null,
    });
  });

  it('refuses a key whose user may not ask (403), in their language', async () => {
    const staff = await signedInAs(t, 'Staff');
    await db().update(users).set({ language: 'de' }).where(eq(users.id, staff.user.id));
    const { openai } = await keyOf(staff.client);
    const error = await openai.chat.completions
      .create({ model: 'werkwissen', messages: [{ role: 'user', content: QUESTION }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toEqual({
      code: 'FORBIDDEN',
      type: 'permission_error',
      param: null,
      message: translate('de', 'errors.FORBIDDEN'),
    });
  });

  it('answers another company’s chat as an unknown model (404), without a word of it', async () => {
    const error = await ask(b, `chat-${a.chatId}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'NOT_FOUND',
      param: 'model',
    });
    expect(JSON.stringify((error as InstanceType<typeof OpenAI.APIError>).error)).not.toContain('Heizung');
    const unknown = await ask(a, 'gpt-4o').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses a malformed request (400) and a last message that is not the user’s', async () => {
    const empty = await a.openai.chat.completions
      .create({ model: 'werkwissen', messages: [] })
      .catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
    expect((empty as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      type: 'invalid_request_error',
      param: 'messages',
    });
    const last = await a.openai.chat.completions
      .create({ model: 'werkwissen', messages: [{ role: 'assistant', content: 'Hallo' }] })
      .catch((e: unknown) => e);
    expect((last as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      param: 'messages.0.content',
    });
  });

  it('takes the plan’s monthly questions atomically and refuses the rest (429)', async () => {
    const admin = await signedInAs(t, 'Administrator');
    const limits = {
      storageBytes: null,
      divisions: null,
      employees: null,
      smtpSettings: 1,
      emailSettings: 1,
      questionsPerMonth: 2,
    };
    expect((await admin.client.put('/admin/plans/trial', { priceCents: null, limits })).status).toBe(200);
    const c = await company();
    const day = 86_400_000;
    await db()
      .insert(subscriptions)
      .values({
        companyId: c.companyId,
        plan: 'trial',
        status: 'trial',
        startsAt: new Date(Date.now() - day),
        endsAt: new Date(Date.now() + 14 * day),
      });
    const answers = await Promise.all(Array.from({ length: 4 }, () => ask(c).catch((e: unknown) => e)));
    const refused = answers.filter((r) => r instanceof OpenAI.APIError);
    expect(answers.length - refused.length).toBe(2);
    for (const error of refused) {
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', type: 'insufficient_quota' });
    }
  });
});
