import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForFile } from '../../../test/support/documents.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// One parser process and one index worker: every file queues, so the order shows the scheduling.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { PARSER_PROCESSES: '1', INDEX_WORKERS: '1' } });
});
afterAll(() => t?.close());

/** A company with one division, signed in before any upload (signing up is slower than processing a note). */
async function company(name: string) {
  const { client } = await signedInDataManager(t, { language: 'de' });
  const divisionId = (await client.post('/divisions', { name })).body.id as string;
  return { client, divisionId, name };
}

/**
 * Uploads `count` notes in requests of at most 20 (the upload limit), sent at once: the whole backlog is queued
 * within about one request's time, before the worker gets through more than a few of them.
 */
async function upload(c: Awaited<ReturnType<typeof company>>, count: number) {
  const batches = [];
  for (let start = 0; start < count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start) }, (_, i) => ({
      name: `${c.name}-${start + i}.txt`,
      content: `Notiz ${start + i} von ${c.name}: Der Kessel wird jährlich gewartet.`,
    }));
    batches.push(c.client.upload(`/divisions/${c.divisionId}/files`, batch));
  }
  const ids = (await Promise.all(batches)).flatMap((res) =>
    res.body.results.map((r: { file: { id: string } }) => r.file.id),
  );
  return { client: c.client, ids };
}

describe('fair scheduling between companies', () => {
  it("does not make one company's file wait behind another company's large upload", async () => {
    const [big, small] = [await company('Gross'), await company('Klein')];
    // 100 notes, sent at once: with workers woken as soon as a job is sent, notes sent one request after another
    // were mostly done before the last request (CI: 4 of 100 still waiting).
    const a = await upload(big, 100);
    const b = await upload(small, 1);
    const bReady = await waitForFile(b.client, b.ids[0]!, undefined, 120_000);
    expect(bReady.status).toBe('ready');
    const aFiles = [];
    for (const id of a.ids) aFiles.push(await waitForFile(a.client, id, undefined, 120_000));
    expect(aFiles.every((f) => f.status === 'ready')).toBe(true);
    // A's files still waiting when B's was uploaded: a backlog B's file would wait behind if first come were first
    // served.
    const waiting = aFiles.filter((f) => f.readyAt > bReady.createdAt);
    expect(waiting.length).toBeGreaterThan(20);
    // B's file is ready before all of them but those already under way: the one being read and the one being
    // indexed, and the next of each (queued at the same rank as B's, and older).
    const beforeB = waiting.filter((f) => f.readyAt < bReady.readyAt).length;
    expect(beforeB).toBeLessThanOrEqual(4);
  }, 180_000);
});
