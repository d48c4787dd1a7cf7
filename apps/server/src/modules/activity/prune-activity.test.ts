import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog } from '../../db/schema/index.ts';
import { pruneActivityJob, pruneActivityLog } from './prune-activity.job.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const DAY = 86_400_000;

/** Activity entries written `ageDays` ago. */
async function entriesAged(ageDays: number, count: number, action: string) {
  const rows = await t.server.ctx.db
    .insert(activityLog)
    .values(
      Array.from({ length: count }, () => ({
        action,
        method: 'POST',
        endpoint: '/api/v1/test',
        statusCode: 200,
        createdAt: new Date(Date.now() - ageDays * DAY),
      })),
    )
    .returning({ id: activityLog.id });
  return rows.map((r) => r.id);
}

const remaining = async (ids: string[]) =>
  (await t.server.ctx.db.select({ id: activityLog.id }).from(activityLog).where(inArray(activityLog.id, ids)))
    .length;

describe('activity-log retention', () => {
  it('deletes, batch by batch, only the entries older than the default 180 days', async () => {
    const old = await entriesAged(200, 5, 'pruneOld');
    const kept = await entriesAged(170, 2, 'pruneKept');
    expect(await pruneActivityLog(t.server.ctx, 2)).toBe(5);
    expect(await remaining(old)).toBe(0);
    expect(await remaining(kept)).toBe(2);
  });

  it('follows the retention setting as soon as it changes, when the daily job runs', async () => {
    const admin = await signedInAdmin(t);
    const month = await entriesAged(40, 3, 'pruneMonth');
    const week = await entriesAged(7, 1, 'pruneWeek');
    const run = {
      id: 'test',
      retryCount: 0,
      retryLimit: 3,
      isFinalAttempt: false,
      signal: new AbortController().signal,
    };
    await pruneActivityJob.handler({}, t.server.ctx, run);
    expect(await remaining(month)).toBe(3);
    expect((await admin.put('/admin/system-settings/activity-log', { retentionDays: 30 })).status).toBe(200);
    await pruneActivityJob.handler({}, t.server.ctx, run);
    expect(await remaining(month)).toBe(0);
    expect(await remaining(week)).toBe(1);
  });

  it('is scheduled daily in the job queue', async () => {
    const { rows } = await t.server.ctx.pool.query('select cron from pgboss.schedule where name = $1', [
      'activity.prune',
    ]);
    expect(rows).toEqual([{ cron: pruneActivityJob.cron }]);
  });
});
