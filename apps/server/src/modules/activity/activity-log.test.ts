import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog, companies } from '../../db/schema/index.ts';
import { ACTIVITY_CSV_COLUMNS } from './activity-csv.ts';
import { EXPORT_BATCH } from './activity-log.service.ts';

let t: TestServer;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let companyId: string;
const tag = `filter${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  admin = await signedInAdmin(t);
  const db = t.server.ctx.db;
  const [company] = await db
    .insert(companies)
    .values({ name: `Bäckerei ${tag}` })
    .returning();
  companyId = company!.id;
  const entry = (over: Partial<typeof activityLog.$inferInsert>) => ({
    action: 'updateMe',
    method: 'PATCH',
    endpoint: '/api/v1/auth/me',
    statusCode: 200,
    actorEmail: `anna.${tag}@firma.example`,
    ...over,
  });
  await db.insert(activityLog).values([
    entry({ createdAt: new Date('2026-03-01T10:00:00Z'), companyId }),
    entry({ createdAt: new Date('2026-03-02T23:59:00Z'), statusCode: 422, action: 'createDivision' }),
    entry({
      createdAt: new Date('2026-03-03T00:00:00Z'),
      statusCode: 500,
      actorEmail: `ben.${tag}@x.example`,
    }),
    entry({
      createdAt: new Date('2026-03-04T08:00:00Z'),
      action: 'updateGeneralSettings',
      actorEmail: `=cmd.${tag}@x.example`,
      changes: { before: { appTitle: 'Alt' }, after: { appTitle: 'Neu, "quoted"' } },
    }),
  ]);
});
afterAll(() => t?.close());

/** The export's bytes as the browser downloads them (the API client's text decoding would drop the BOM). */
async function download(query: string) {
  const res = await fetch(`${t.url}/api/v1/admin/activity-log/export?${query}`, {
    headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, rows: parse(bytes.subarray(3).toString('utf8')) as string[][] };
}

const list = async (filter: string) => {
  const res = await admin.get(`/admin/activity-log?q=${tag}&pageSize=100&${filter}`);
  expect(res.status).toBe(200);
  return res.body as { total: number; items: Array<Record<string, unknown>> };
};

describe('activity log filters', () => {
  it('narrows by period (UTC days, the last one included), status class, actor, company and action', async () => {
    expect((await list('')).total).toBe(4);
    const period = await list('from=2026-03-02&to=2026-03-03');
    expect(period.items.map((e) => e.statusCode)).toEqual([500, 422]);
    expect((await list('status=4xx')).items.map((e) => e.action)).toEqual(['createDivision']);
    expect((await list('status=5xx')).items.map((e) => e.statusCode)).toEqual([500]);
    expect((await list('status=2xx')).total).toBe(2);
    expect((await list(`actor=BEN.${tag}`)).items.map((e) => e.statusCode)).toEqual([500]);
    const byCompany = await list(`company=${encodeURIComponent('bäckerei')}`);
    expect(byCompany.items).toHaveLength(1);
    expect(byCompany.items[0]).toMatchObject({ companyId, companyName: `Bäckerei ${tag}` });
    expect((await list('action=settings')).items.map((e) => e.action)).toEqual(['updateGeneralSettings']);
  });

  it('refuses a malformed filter with the field named', async () => {
    const res = await admin.get('/admin/activity-log?status=3xx&from=gestern');
    expect(res.status).toBe(422);
    const fields = res.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['from', 'status']);
  });
});

describe('activity log export', () => {
  it('streams the filtered entries as CSV with stable columns, quoting and no formulas', async () => {
    const { res, bytes, rows } = await download(`actor=${tag}&from=2026-03-02`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="activity-log-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(rows[0]).toEqual([...ACTIVITY_CSV_COLUMNS]);
    const col = (name: (typeof ACTIVITY_CSV_COLUMNS)[number]) => ACTIVITY_CSV_COLUMNS.indexOf(name);
    expect(rows.slice(1).map((r) => r[col('statusCode')])).toEqual(['200', '500', '422']);
    const settings = rows[1]!;
    expect(settings[col('actorEmail')]).toBe(`'=cmd.${tag}@x.example`);
    expect(JSON.parse(settings[col('changes')]!)).toEqual({
      before: { appTitle: 'Alt' },
      after: { appTitle: 'Neu, "quoted"' },
    });
  });

  it('reads a log longer than one batch completely, in order, also within one millisecond', async () => {
    const many = `batch${Date.now()}`;
    const at = new Date('2026-02-01T12:00:00.123Z');
    const rows = Array.from({ length: EXPORT_BATCH + 5 }, (_, i) => ({
      action: `bulk${i}`,
      method: 'POST',
      endpoint: '/api/v1/x',
      statusCode: 201,
      actorEmail: `${many}@x.example`,
      createdAt: at,
    }));
    await t.server.ctx.db.insert(activityLog).values(rows);
    // Microseconds apart inside one millisecond (a JavaScript date cannot hold them): the cursor must not round them.
    await t.server.ctx.db.execute(
      sql`update activity_log set created_at = created_at + (substring(action from 5)::int % 1000) * interval '1 microsecond'
          where actor_email = ${`${many}@x.example`}`,
    );
    const { rows: lines } = await download(`actor=${many}`);
    const actions = lines.slice(1).map((r) => r[ACTIVITY_CSV_COLUMNS.indexOf('action')]);
    expect(actions).toHaveLength(EXPORT_BATCH + 5);
    expect(new Set(actions).size).toBe(EXPORT_BATCH + 5);
  });
});
