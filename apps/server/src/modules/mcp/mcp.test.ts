import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_NAMES } from '@werkwissen/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChat, insertDivision, insertPassage } from '../../../test/support/chat-fixtures.ts';
import { createRole, createUser, signedInAs } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import { apiKeys, subscriptions, userRoles, users } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

/**
 * The MCP server through the SDK's own client and Streamable HTTP transport, against the real server: two data
 * managers of two companies, each with an API key, see and ask only their own company's knowledge; a user without
 * rights is refused; no key is 401.
 */
let t: TestServer;
const db = () => t.server.ctx.db;
const DAY = 86_400_000;
const QUESTION_CAP = 3;

interface Company {
  token: string;
  userId: string;
  companyId: string;
  divisionId: string;
  fileId: string;
  passageId: string;
  chatId: string;
}

/** A personal API key of the user, stored as the API keys page stores one (only its hash). */
async function keyFor(userId: string, companyId: string | null): Promise<string> {
  const token = `ww_${randomToken(32)}`;
  await db()
    .insert(apiKeys)
    .values({ userId, companyId, name: 'MCP', prefix: token.slice(0, 10), keyHash: sha256(token) });
  return token;
}

/** A company whose data manager has a key, one division with one ready passage, and a chat over it. */
async function company(text: string, fileName: string): Promise<Company> {
  const { user, companyId } = await createUser(t, 'DataManager');
  const division = await insertDivision(t, companyId!, 'Heizung');
  const { file, passageId } = await insertPassage(t, {
    companyId: companyId!,
    divisionId: division.id,
    fileName,
    text,
    page: 4,
  });
  const chat = await insertChat(t, { companyId: companyId!, ownerId: user.id, divisionIds: [division.id] });
  return {
    token: await keyFor(user.id, companyId),
    userId: user.id,
    companyId: companyId!,
    divisionId: division.id,
    fileId: file.id,
    passageId,
    chatId: chat.id,
  };
}

const mcpUrl = () => new URL(`${t.url}/api/v1/mcp`);

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'werkwissen-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The result's data, after checking that the call succeeded and that its text says the same. */
function dataOf(result: CallToolResult) {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const text = result.content[0];
  expect(text?.type === 'text' && JSON.parse(text.text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, any>;
}

function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; message: string; details?: any } }).error;
}

let a: Company;
let b: Company;
let clientA: Client;
let clientB: Client;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  a = await company('Die Vorlauftemperatur der Heizung beträgt 55 Grad Celsius.', 'Heizung-A.pdf');
  b = await company('Der Wartungsvertrag der Heizung kostet 240 Euro im Jahr.', 'Vertrag-B.pdf');
  clientA = await connect(a.token);
  clientB = await connect(b.token);
}, 120_000);
afterAll(async () => {
  await clientA?.close();
  await clientB?.close();
  await t?.close();
});

describe('the MCP server', () => {
  it('answers 401 without a key or with a wrong one', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    for (const authorization of [undefined, 'Bearer ww_falsch']) {
      const res = await fetch(mcpUrl(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('UNAUTHENTICATED');
    }
    await expect(connect('ww_falsch')).rejects.toThrow();
  });

  it('lists its tools with the JSON Schemas of their input contracts', async () => {
    const { tools } = await clientA.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
    }
    const search = tools.find((tool) => tool.name === 'search')!;
    expect(search.inputSchema.required).toEqual(['q']);
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual(['divisionId', 'limit', 'mode', 'q']);
  });

  it('searches only the own company’s documents, with what a citation names', async () => {
    const ownA = dataOf(await call(clientA, 'search', { q: 'Vorlauftemperatur Heizung' }));
    expect(ownA.hits).toHaveLength(1);
    expect(ownA.hits[0]).toMatchObject({
      passageId: a.passageId,
      fileId: a.fileId,
      fileName: 'Heizung-A.pdf',
      divisionName: 'Heizung',
      page: 4,
      headingPath: [],
      text: 'Die Vorlauftemperatur der Heizung beträgt 55 Grad Celsius.',
    });
    // Words of the other company's passage find nothing.
    expect(dataOf(await call(clientA, 'search', { q: 'Wartungsvertrag' })).hits).toEqual([]);
    const ownB = dataOf(await call(clientB, 'search', { q: 'Wartungsvertrag Heizung' }));
    expect(ownB.hits.map((h: { passageId: string }) => h.passageId)).toEqual([b.passageId]);
    // Another company's division as a filter is not found.
    expect(errorOf(await call(clientA, 'search', { q: 'Heizung', divisionId: b.divisionId })).code).toBe(
      'NOT_FOUND',
    );
  });

  it('lists the own divisions and chats only', async () => {
    for (const [client, own, other] of [
      [clientA, a, b],
      [clientB, b, a],
    ] as const) {
      const divisions = dataOf(await call(client, 'list_divisions')).divisions;
      expect(divisions).toEqual([{ divisionId: own.divisionId, name: 'Heizung', fileCount: 1 }]);
      const chats = dataOf(await call(client, 'list_chats')).chats;
      expect(chats.map((c: { chatId: string }) => c.chatId)).toEqual([own.chatId]);
      expect(chats[0].canAsk).toBe(true);
      expect(JSON.stringify(chats)).not.toContain(other.chatId);
    }
  });

  it('reads passages and file text of the own company, and finds nothing of another', async () => {
    const passage = dataOf(await call(clientA, 'get_passage', { passageId: a.passageId }));
    expect(passage).toMatchObject({
      passageId: a.passageId,
      fileName: 'Heizung-A.pdf',
      page: 4,
      position: 0,
    });
    const text = dataOf(await call(clientA, 'get_file_text', { fileId: a.fileId }));
    expect(text).toMatchObject({
      fileId: a.fileId,
      fileName: 'Heizung-A.pdf',
      total: 1,
      start: 0,
      nextStart: null,
    });
    expect(text.passages).toEqual([
      { passageId: a.passageId, position: 0, page: 4, headingPath: [], text: passage.text },
    ]);
    expect(errorOf(await call(clientA, 'get_passage', { passageId: b.passageId })).code).toBe('NOT_FOUND');
    expect(errorOf(await call(clientA, 'get_file_text', { fileId: b.fileId })).code).toBe('NOT_FOUND');
    expect(errorOf(await call(clientB, 'get_passage', { passageId: a.passageId })).code).toBe('NOT_FOUND');
  });

  it('answers a question in the own chat with citations, and finds no other company’s chat', async () => {
    const answer = dataOf(
      await call(clientA, 'ask', {
        chatId: a.chatId,
        question: 'Wie hoch ist die Vorlauftemperatur der Heizung?',
      }),
    );
    expect(answer.noAnswer).toBe(false);
    expect(answer.answer).toContain('55');
    expect(answer.answer).toContain('[1]');
    expect(answer.citations[0]).toMatchObject({
      n: 1,
      passageId: a.passageId,
      fileId: a.fileId,
      fileName: 'Heizung-A.pdf',
      page: 4,
    });
    // The question and its answer are stored in the key user's own thread of the chat, as in the browser.
    const { rows } = await db().execute<{ role: string }>(
      sql`select m.role from chat_messages m join chat_threads th on th.id = m.thread_id
        where th.chat_id = ${a.chatId} and th.user_id = ${a.userId} order by m.role`,
    );
    expect(rows.map((r) => r.role)).toEqual(['assistant', 'user']);
    const refused = errorOf(await call(clientB, 'ask', { chatId: a.chatId, question: 'Vorlauftemperatur?' }));
    expect(refused.code).toBe('NOT_FOUND');
  });

  it('refuses a user without rights, in their language', async () => {
    const { user } = await createUser(t, 'Employee', { companyId: a.companyId });
    const role = await createRole(t, []);
    await db().delete(userRoles).where(eq(userRoles.userId, user.id));
    await db().insert(userRoles).values({ userId: user.id, roleId: role.id });
    await db().update(users).set({ language: 'de' }).where(eq(users.id, user.id));
    const client = await connect(await keyFor(user.id, a.companyId));
    try {
      for (const [name, args] of [
        ['search', { q: 'Heizung' }],
        ['ask', { chatId: a.chatId, question: 'Vorlauftemperatur?' }],
        ['list_chats', {}],
        ['list_divisions', {}],
        ['get_passage', { passageId: a.passageId }],
        ['get_file_text', { fileId: a.fileId }],
      ] as const) {
        const error = errorOf(await call(client, name, args));
        expect(error, name).toEqual({ code: 'FORBIDDEN', message: translate('de', 'errors.FORBIDDEN') });
      }
    } finally {
      await client.close();
    }
  });

  it('refuses bad input with the fields and translated messages', async () => {
    const error = errorOf(await call(clientA, 'search', { q: '', limit: 500, extra: 1 }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(translate('en', 'errors.VALIDATION_FAILED'));
    expect(error.details.fields).toEqual(
      expect.arrayContaining([
        { field: 'q', code: 'validation.required', message: translate('en', 'validation.required') },
        expect.objectContaining({ field: 'limit' }),
      ]),
    );
    const unknown = await clientA.callTool({ name: 'delete_everything', arguments: {} }).catch((e) => e);
    expect(unknown).toBeInstanceOf(Error);
  });

  it('writes every call into the activity log under its tool', async () => {
    await call(clientB, 'list_divisions');
    await t.server.ctx.activity.flush();
    const { rows } = await db().execute<{ action: string; endpoint: string }>(
      sql`select action, endpoint from activity_log where actor_user_id = ${b.userId}`,
    );
    const actions = rows.map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'mcp:initialize',
        'mcp:notifications/initialized',
        'mcp:search',
        'mcp:list_divisions',
      ]),
    );
    expect(rows.every((r) => r.endpoint === '/api/v1/mcp')).toBe(true);
  });

  it('counts questions against the plan’s monthly cap, also when asked at once', async () => {
    const admin = await signedInAs(t, 'Administrator');
    const limits = {
      storageBytes: 1024 * 1024,
      divisions: 3,
      employees: 2,
      smtpSettings: 1,
      emailSettings: 1,
    };
    const plan = await admin.client.put('/admin/plans/trial', {
      priceCents: null,
      limits: { ...limits, questionsPerMonth: QUESTION_CAP },
    });
    expect(plan.status).toBe(200);
    const c = await company('Den Heizkörper entlüften Sie mit dem Vierkantschlüssel.', 'Entlueften.pdf');
    await db()
      .insert(subscriptions)
      .values({
        companyId: c.companyId,
        plan: 'trial',
        status: 'trial',
        startsAt: new Date(Date.now() - DAY),
        endsAt: new Date(Date.now() + 14 * DAY),
      });
    // One chat each, so that no thread orders the questions: only the cap does.
    const chats = [c.chatId];
    for (let i = 1; i < 6; i++) {
      chats.push(
        (await insertChat(t, { companyId: c.companyId, ownerId: c.userId, divisionIds: [c.divisionId] })).id,
      );
    }
    const client = await connect(c.token);
    try {
      const results = await Promise.all(
        chats.map((chatId) => call(client, 'ask', { chatId, question: 'Wie entlüfte ich den Heizkörper?' })),
      );
      const answered = results.filter((r) => !r.isError);
      expect(answered).toHaveLength(QUESTION_CAP);
      for (const refused of results.filter((r) => r.isError))
        expect(errorOf(refused).code).toBe('PLAN_LIMIT_REACHED');
    } finally {
      await client.close();
    }
    const { rows } = await db().execute<{ n: string | number }>(
      sql`select count(*) as n from chat_messages where company_id = ${c.companyId} and role = 'user'`,
    );
    expect(Number(rows[0]!.n)).toBe(QUESTION_CAP);
  });
});
