import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../test/support/api-client.ts';
import { signedInWithRules } from '../../test/support/factories.ts';
import {
  registration,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../test/support/test-server.ts';

/**
 * A NUL byte must never reach PostgreSQL (it fails there with a 500, and the failed statement's parameters used to be
 * logged). The walk is generated from the OpenAPI document, so a new field is covered without touching this test.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
};
type Parameter = { name: string; in: string; schema: Schema };
type Operation = {
  operationId: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

/** Otherwise a valid value for most text fields (a password, a URL, a name), so that only the NUL is wrong. */
const WITH_NUL = 'https://w.example/Pass-1\u0000x';

/**
 * Valid bodies the test knows, so that a NUL in one field would otherwise reach the database together with a
 * password hash, an API-key hash or a sealed provider key.
 */
const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  register: () => registration(),
  createApiKey: () => ({ name: 'Build server' }),
  createChatCompletion: () => ({ model: 'werkwissen', messages: [{ role: 'user', content: 'Hallo' }] }),
  saveAiProvider: () => ({ apiKey: 'sk-test-0123456789abcdef', model: 'gpt-4o-mini' }),
};

let t: TestServer;
let admin: ApiClient;
let doc: OpenApi;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  // A caller every route's permission lets through to validation (the Administrator's role keeps company data out).
  admin = (await signedInWithRules(t, 'Administrator', [{ action: 'manage', subject: 'all' }])).client;
  doc = (await t.client().get('/openapi.json')).body;
});
afterAll(() => t?.close());

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop()!;
  return resolve(doc.components!.schemas![name]!);
}

const types = (s: Schema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** Every string in a schema, as a path (property names and array indexes) with the string's own schema. */
function stringPaths(
  schema: Schema,
  path: Array<string | number> = [],
  inUnion = false,
): Array<{ path: Array<string | number>; schema: Schema }> {
  const s = resolve(schema);
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].map(resolve);
  if (branches.length > 0) {
    // A union of several forms (e.g. an address or ''): its message is the union's, not the string's.
    const isNull = (b: Schema) => types(b).length > 0 && types(b).every((type) => type === 'null');
    const union = inUnion || branches.filter((b) => !isNull(b)).length > 1;
    const string = branches.find((b) => types(b).includes('string') && !b.enum?.includes(''));
    const found = string ? [{ path, schema: union ? { ...string, anyOf: branches } : string }] : [];
    for (const b of branches.filter((b) => !types(b).includes('string'))) {
      found.push(...stringPaths(b, path, union));
    }
    return found;
  }
  if (types(s).includes('string')) return [{ path, schema: inUnion ? { ...s, anyOf: [] } : s }];
  if (types(s).includes('object') && s.properties) {
    return Object.entries(s.properties).flatMap(([key, prop]) => stringPaths(prop, [...path, key]));
  }
  if (types(s).includes('array') && s.items) return stringPaths(s.items, [...path, 0]);
  return [];
}

function valueAt(path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [valueAt(rest, value)] : { [head!]: valueAt(rest, value) };
}

/** A valid dummy for a path parameter (a UUID, an enum's first value, a share token). */
function dummy(schema: Schema): string {
  const s = resolve(schema);
  if (s.enum) return String(s.enum[0]);
  if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  return 'a'.repeat(32);
}

function concretePath(path: string, op: Operation): string {
  let concrete = path.replace(/^\/api\/v1/, '');
  for (const p of op.parameters?.filter((p) => p.in === 'path') ?? []) {
    concrete = concrete.replace(`{${p.name}}`, encodeURIComponent(dummy(p.schema)));
  }
  return concrete;
}

/** A free-text string: nothing but the control-character rule can refuse the sent value. */
const isFreeText = (s: Schema) => !s.enum && !s.format && !s.pattern && !s.allOf && !s.anyOf;

function operations() {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

const clientFor = (op: Operation) => (op.description?.startsWith('Public') ? t.client() : admin);

/** The status of a refused body: 422, or 400 at the OpenAI-compatible door (OpenAI's, with the same details). */
const refusedStatus = (path: string) => (path.startsWith('/api/v1/openai/') ? 400 : 422);

describe('a NUL byte in any text field', () => {
  it('is refused with 422 (400 at the OpenAI door) and the field named, in every JSON body', async () => {
    let checked = 0;
    const failures: string[] = [];
    for (const { path, method, op } of operations()) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (!schema) continue; // multipart uploads have no JSON schema (file names are cleaned separately)
      for (const field of stringPaths(schema)) {
        const base = VALID_BODIES[op.operationId]?.() ?? {};
        const body = { ...base, ...(valueAt(field.path, WITH_NUL) as object) };
        const res = await clientFor(op).request(method, concretePath(path, op), body);
        const name = field.path.join('.');
        const entries = (res.body?.error?.details?.fields ?? []) as Array<{
          field: string;
          code: string;
          message: string;
        }>;
        const entry = entries.find((e) => e.field === name);
        checked++;
        if (res.status !== refusedStatus(path) || !entry) {
          failures.push(`${op.operationId} ${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        } else if (isFreeText(field.schema) && entry.code !== 'validation.controlCharacters') {
          failures.push(`${op.operationId} ${name}: refused as ${entry.code}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it('is refused with 422 and the parameter named, in every string query parameter', async () => {
    let checked = 0;
    const failures: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const param of op.parameters?.filter((p) => p.in === 'query') ?? []) {
        if (stringPaths(param.schema).length === 0) continue;
        const url = `${concretePath(path, op)}?${param.name}=${encodeURIComponent(WITH_NUL)}`;
        const res = await clientFor(op).request(method, url);
        const entries = (res.body?.error?.details?.fields ?? []) as Array<{ field: string; code: string }>;
        checked++;
        if (res.status !== 422 || !entries.some((e) => e.field === param.name)) {
          failures.push(
            `${op.operationId} ?${param.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('translates the field message', async () => {
    // The caller's saved language decides (a signed-in user's Accept-Language is not asked).
    await admin.patch('/auth/me', { language: 'de' });
    const res = await admin.post('/divisions', { name: 'Hei\u0000zung' });
    await admin.patch('/auth/me', { language: 'en' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields).toEqual([
      {
        field: 'name',
        code: 'validation.controlCharacters',
        message: expect.stringMatching(/Steuerzeichen/),
      },
    ]);
  });

  it('leaves no password hash, API-key hash or sealed key in the log', () => {
    const log = t.logs.join('\n');
    expect(log).not.toContain('$argon2');
    expect(log).not.toMatch(/\b[0-9a-f]{64}\b/); // SHA-256 of an API key
    expect(log).not.toMatch(/v1\.[\w-]{16}\.[\w-]{22}\./); // a sealed provider key
    expect(log).not.toMatch(/\\u0000|params:/);
  });
});

describe('names', () => {
  it('lose bidi controls, and invisible-only names are missing (tags, divisions, chats, API keys)', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const division = await client.post('/divisions', { name: '\u202eVertrieb\u202c\u200b' });
    expect(division.status).toBe(201);
    expect(division.body.name).toBe('Vertrieb');
    const tag = await client.post('/tags', { name: 'Rückruf\u2066 \u200f' });
    expect(tag.body.name).toBe('Rückruf');
    const emoji = await client.post('/tags', { name: '👩\u200d🔧 Technik' });
    expect(emoji.body.name).toBe('👩\u200d🔧 Technik');
    const chat = await client.post('/chats', { name: '\u2067مبيعات\u2069', divisionIds: [division.body.id] });
    expect(chat.body.name).toBe('مبيعات');
    const key = await client.post('/api-keys', { name: '\u202dCI\u202c' });
    expect(key.body.apiKey.name).toBe('CI');
    for (const [path, body] of [
      ['/divisions', { name: '\u200b\u200d' }],
      ['/tags', { name: '\ufeff \u2060' }],
      ['/chats', { name: '\u200c', divisionIds: [division.body.id] }],
      ['/api-keys', { name: '\u202e\u200b' }],
    ] as const) {
      const res = await client.post(path, body);
      expect(res.status, path).toBe(422);
      expect(res.body.error.details.fields).toEqual([
        { field: 'name', code: 'validation.required', message: 'This field is required' },
      ]);
    }
  });
});

describe('the log', () => {
  it('never shows the parameters of a failed query, nor of its causes', async () => {
    const { ctx } = t.server;
    const log = ctx.log.child({ probe: 'params' });
    const error = await ctx.db.execute(sql`select ${'secret-value\u0000'}::text`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('secret-value'); // drizzle puts the parameters in the message
    log.error({ err: error }, 'query failed');
    log.error({ err: new Error('wrapped', { cause: error }) }, 'wrapped query failure');
    log.error(error as Error);
    const lines = t.logs.filter((l) => l.includes('"probe":"params"'));
    expect(lines.length).toBe(3);
    for (const line of lines) {
      expect(line).not.toContain('secret-value');
      expect(line).toContain('Failed query');
    }
  });

  it('drops the detail of a PostgreSQL error (it quotes the values of a violated key)', async () => {
    const { ctx } = t.server;
    await ctx.db.execute(sql`create table detail_probe (v text primary key)`);
    await ctx.db.execute(sql`insert into detail_probe values ('secret-detail')`);
    const error = await ctx.db.execute(sql`insert into detail_probe values (${'secret-detail'})`).then(
      () => null,
      (e: unknown) => e,
    );
    await ctx.db.execute(sql`drop table detail_probe`);
    expect(error).toBeInstanceOf(Error);
    ctx.log.error({ err: error }, 'duplicate probe');
    const line = t.logs.find((l) => l.includes('duplicate probe'))!;
    expect(line).toContain('23505');
    expect(line).not.toContain('secret-detail');
  });
});
