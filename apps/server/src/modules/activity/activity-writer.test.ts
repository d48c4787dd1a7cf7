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

describe('the batched activity writer', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ smtp: false });
  });
  afterAll(() => t?.close());

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
