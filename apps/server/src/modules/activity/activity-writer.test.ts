import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { activityLog } from '../../db/schema/index.ts';
import { MAX_BATCH } from './activity-writer.ts';

const entry = (action: string) => ({
  action,
  method: 'POST',
  endpoint: '/api/v1/test',
  statusCode: 200,
  createdAt: new Date(),
});

const countOf = async (t: TestServer, action: string) =>
  (
    await t.server.ctx.db
      .select({ id: activityLog.id })
      .from(activityLog)
      .where(eq(activityLog.action, action))
  ).length;

/** One server for the writer's batches and the values PostgreSQL refuses: each test looks only at its own entries. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

describe('the batched activity writer', () => {
  it("shows a request's entry in the log as soon as the request is answered", async () => {
    const { client } = await signedInDataManager(t);
    expect((await client.post('/divisions', { name: 'Logged at once' })).status).toBe(201);
    const admin = await signedInAdmin(t);
    const log = await admin.get('/admin/activity-log?q=createDivision');
    expect(log.status).toBe(200);
    expect(log.body.items.map((i: { action: string }) => i.action)).toContain('createDivision');
  });

  it('writes every entry when more arrive than one insert takes', async () => {
    const count = MAX_BATCH * 2 + 7;
    for (let i = 0; i < count; i++) t.server.ctx.activity.add(entry('manyEntries'));
    await t.server.ctx.activity.flush();
    expect(await countOf(t, 'manyEntries')).toBe(count);
  });
});

describe('values PostgreSQL refuses', () => {
  it("keeps someone else's change when an anonymous sign-in with a NUL byte lands in the same batch", async () => {
    const { client, email: creator } = await signedInDataManager(t);
    const name = `Neben NUL ${Date.now()}`;
    const email = `nul${Date.now()}\u0000x@firma.example`;
    const [created, ...logins] = await Promise.all([
      client.post('/divisions', { name }),
      ...Array.from({ length: 3 }, () => t.client().post('/auth/login', { email, password: 'egal-123' })),
    ]);
    expect(created.status).toBe(201);
    for (const login of logins) expect(login.status).toBe(422);
    const admin = await signedInAdmin(t);
    const divisions = await admin.get('/admin/activity-log?q=createDivision&pageSize=100');
    // This data manager's creation (the file's server also logged others'), kept beside the refused values.
    expect(
      divisions.body.items.filter(
        (e: { actorEmail: string; statusCode: number }) => e.statusCode === 201 && e.actorEmail === creator,
      ),
    ).toHaveLength(1);
    // The sign-in attempts are there too, the NUL byte shown as a replacement character.
    const attempts = await admin.get(
      `/admin/activity-log?actor=${encodeURIComponent(email.split('\u0000')[0]!)}`,
    );
    expect(attempts.body.items.map((e: { actorEmail: string }) => e.actorEmail)).toEqual(
      Array(3).fill(email.replace('\u0000', '\ufffd')),
    );
  });

  it('writes the rest of a batch when one entry cannot be stored, and that entry cleaned', async () => {
    const action = `cleaned${Date.now()}`;
    t.server.ctx.activity.add(entry(action));
    t.server.ctx.activity.add({
      ...entry(action),
      endpoint: '/api/v1/x\u0000y',
      changes: { before: { 'k\u0000': 'a\u0000b' }, after: ['\u0000'] },
    });
    // A company deleted (with its users) while its last requests waited for their batch.
    t.server.ctx.activity.add({ ...entry(action), companyId: randomUUID(), actorEmail: 'weg@firma.example' });
    t.server.ctx.activity.add(entry(action));
    await t.server.ctx.activity.flush();
    const rows = await t.server.ctx.db.select().from(activityLog).where(eq(activityLog.action, action));
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.actorEmail === 'weg@firma.example')?.companyId).toBeNull();
    expect(rows.find((r) => r.changes)).toMatchObject({
      endpoint: '/api/v1/x\ufffdy',
      changes: { before: { 'k\ufffd': 'a\ufffdb' }, after: ['\ufffd'] },
    });
  });
});

describe('a stopping server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-activity-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes the entries still waiting for their batch before the database closes', async () => {
    const first = await startTestServer({ smtp: false, dataDir });
    for (let i = 0; i < 3; i++) first.server.ctx.activity.add(entry('waitingAtStop'));
    await first.close();
    const second = await startTestServer({ smtp: false, dataDir });
    try {
      expect(await countOf(second, 'waitingAtStop')).toBe(3);
    } finally {
      await second.close();
    }
  });
});
