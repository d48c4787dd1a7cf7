import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../test/support/knowledge.ts';
import { freePort } from '../../test/support/processes.ts';
import { stream } from '../../test/support/sse.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../test/support/test-server.ts';

const TOKEN = 'metrics-token-0123456789-0123456789-abc';

/** The value of one sample of the Prometheus text whose labels include `labels` (0 when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const scrape = (url: string, token?: string) =>
  fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('metrics behind a token and on their own port', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(await freePort()), CHAT_PASSAGES: '3' },
    });
  });
  afterAll(() => t?.close());

  it('asks for the token: not a session, not an API key, not a wrong token', async () => {
    const admin = await signedInAdmin(t);
    const key = (await admin.post('/api-keys', { name: 'scraper' })).body.token as string;
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const headers of [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${key}` },
      { cookie },
      { authorization: TOKEN },
    ] as Record<string, string>[]) {
      const res = await fetch(`${t.url}/metrics`, { headers: { ...headers, 'accept-language': 'de' } });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('UNAUTHENTICATED');
      expect(body.error.message).toBe('Bitte melden Sie sich an, um fortzufahren.');
    }
    expect((await scrape(t.server.metricsUrl!)).status).toBe(401);
    expect((await scrape(`${t.url}/metrics`, TOKEN)).status).toBe(200);
    expect((await scrape(t.server.metricsUrl!, TOKEN)).status).toBe(200);
  });

  it('times requests by route pattern, never by URL', async () => {
    const id = crypto.randomUUID();
    await t.client().get(`/files/${id}`);
    await t.client().get('/health');
    const res = await scrape(`${t.url}/metrics`, TOKEN);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).not.toContain(id);
    const bucket = 'werkwissen_http_request_duration_seconds_count';
    expect(sample(text, bucket, { method: 'GET', route: '/api/v1/files/:fileId', status_code: '401' })).toBe(
      1,
    );
    expect(sample(text, bucket, { route: '/api/v1/health', status_code: '200' })).toBeGreaterThanOrEqual(1);
    // The process's own figures come along.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts jobs, files and answers, reads the queue and the pool, and serves the same on its own port', async () => {
    const a = await companyWithFile(t, 'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet.');
    const chat = await a.client.post('/chats', { name: 'Fragen', divisionIds: [a.divisionId] });
    const asked = await stream(a.client, `/chats/${chat.body.id}/messages`, {
      content: 'Womit wird der Heizkörper entlüftet?',
    });
    const outcome = asked.done().noAnswer ? 'no_answer' : 'complete';

    const job = 'werkwissen_job_duration_seconds_count';
    // The file is ready inside its index job, which is counted once the queue has completed it: a moment later.
    const scraped = async () => (await scrape(t.server.metricsUrl!, TOKEN)).text();
    await expect
      .poll(async () => sample(await scraped(), job, { name: 'file.index', outcome: 'completed' }) ?? 0, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(1);
    const text = await scraped();
    expect(sample(text, job, { name: 'file.extract', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, job, { name: 'file.index', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'werkwissen_files', { status: 'ready' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'werkwissen_files', { status: 'failed' })).toBe(0);
    expect(sample(text, 'werkwissen_answers_total', { outcome, provider: 'builtin' })).toBe(1);
    for (const state of ['created', 'retry', 'active'])
      expect(sample(text, 'werkwissen_job_queue_depth', { name: 'file.index', state })).toBeTypeOf('number');
    expect(sample(text, 'werkwissen_db_pool_waiting_clients')).toBeTypeOf('number');
    expect(sample(text, 'werkwissen_db_pool_acquire_seconds_count')).toBeGreaterThan(10);
    // The listener of METRICS_PORT serves nothing else.
    expect((await scrape(t.server.metricsUrl!.replace('/metrics', '/api/v1/health'), TOKEN)).status).toBe(
      404,
    );
  });

  it('counts waiting jobs in the queue depth', async () => {
    const depth = async () =>
      sample(await (await scrape(`${t.url}/metrics`, TOKEN)).text(), 'werkwissen_job_queue_depth', {
        name: 'embedding.reembed',
        state: 'created',
      });
    expect(await depth()).toBe(0);
    // A job nothing else here queues, not due for an hour.
    await t.server.ctx.pool.query(
      `insert into pgboss.job (name, data, start_after) values ('embedding.reembed', '{"indexId": 0}', now() + interval '1 hour')`,
    );
    expect(await depth()).toBe(1);
  });
});

describe('metrics on their own port without a token', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ smtp: false, env: { METRICS_PORT: String(await freePort()) } });
  });
  afterAll(() => t?.close());

  it('serves them on that loopback port only, not on the API', async () => {
    expect(t.server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const res = await scrape(t.server.metricsUrl!);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('werkwissen_http_request_duration_seconds');
    const api = await scrape(`${t.url}/metrics`, TOKEN);
    expect(await api.text()).not.toContain('werkwissen_');
  });
});
