import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../test/support/api-client.ts';
import { signedInDataManager, startTestServer } from '../../test/support/test-server.ts';
import type { BenchEngine } from './bench-engines.ts';
import { BENCH_SERVER_ENV, closeWithin, fmt, sleep } from './bench-kit.ts';

const SMALL_FILES = 500;
const PER_REQUEST = 20;

export interface FairnessResult {
  ok: boolean;
  /** Company B's file alone on the idle server: upload to ready. */
  aloneSeconds: number;
  /** The same file while company A's 500 small files are queued: upload to ready. */
  besideSeconds: number;
  /** Until the last of A's files was ready, from A's first upload. */
  bulkSeconds: number;
}

async function uploadOne(client: ApiClient, divisionId: string, name: string, content: Buffer) {
  const res = await client.upload(`/divisions/${divisionId}/files`, [{ name, content }]);
  const file = res.body?.results?.[0]?.file;
  if (!file) throw new Error(`upload of ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return file.id as string;
}

async function readySeconds(client: ApiClient, fileId: string, deadline: number): Promise<number> {
  for (;;) {
    const file = (await client.get(`/files/${fileId}`)).body;
    if (file.status === 'ready')
      return (new Date(file.readyAt).getTime() - new Date(file.createdAt).getTime()) / 1000;
    if (file.status === 'failed' || file.status === 'cancelled' || Date.now() > deadline) {
      throw new Error(`file ${fileId} ended ${file.status} ${file.errorCode ?? ''}`);
    }
    await sleep(200);
  }
}

/**
 * c. Fairness: company B's one file is first processed alone on the warmed-up server (its own processing time), then
 * uploaded again while company A uploads 500 small text files at once (25 requests of 20, one after another; B's
 * upload goes out after A's first request). B's time beside the bulk upload against its time alone is the figure (the target: 2x).
 */
export async function fairnessScenario(
  engine: BenchEngine,
  bFile: { name: string; content: Buffer },
  workDir: string,
): Promise<FairnessResult> {
  console.log(
    `\nc. ${SMALL_FILES} small files of company A while company B uploads one file (${engine.name})`,
  );
  const dataDir = join(workDir, `fairness-${engine.name}`);
  mkdirSync(dataDir);
  const database = await engine.serverDatabase(dataDir);
  const t = await startTestServer({
    smtp: false,
    dataDir,
    env: { ...BENCH_SERVER_ENV, ...database.serverEnv },
  });
  let ok = true;
  const result: FairnessResult = { ok, aloneSeconds: NaN, besideSeconds: NaN, bulkSeconds: NaN };
  try {
    await t.server.ctx.parser.warm(); // a running server, as in the whole chain
    const a = await signedInDataManager(t, { language: 'de' });
    const b = await signedInDataManager(t, { language: 'de' });
    const aDivision = (await a.client.post('/divisions', { name: 'Notizen' })).body.id as string;
    const bAlone = (await b.client.post('/divisions', { name: 'Allein' })).body.id as string;
    const bBeside = (await b.client.post('/divisions', { name: 'Daneben' })).body.id as string;
    const deadline = Date.now() + 20 * 60_000;

    // A first file warms the server (the embedding index is created with the first passages), so that "alone" is
    // B's own processing time and not the server's start.
    await readySeconds(
      b.client,
      await uploadOne(
        b.client,
        bAlone,
        'warm-up.txt',
        Buffer.from('Ein erster Text, damit alles bereit ist.'),
      ),
      deadline,
    );
    result.aloneSeconds = await readySeconds(
      b.client,
      await uploadOne(b.client, bAlone, bFile.name, bFile.content),
      deadline,
    );
    console.log(`  B's ${bFile.name} alone: ready ${fmt(result.aloneSeconds, 2)} s after its upload`);

    const bulkStart = Date.now();
    const aIds: string[] = [];
    let bId: Promise<string> | null = null;
    for (let start = 0; start < SMALL_FILES; start += PER_REQUEST) {
      const batch = Array.from({ length: PER_REQUEST }, (_, i) => ({
        name: `notiz-${start + i}.txt`,
        content: Buffer.from(
          `Notiz ${start + i}: Beim Kunden ${start + i} wurde der Kessel geprüft und der Filter getauscht.`,
        ),
      }));
      const res = await a.client.upload(`/divisions/${aDivision}/files`, batch);
      aIds.push(
        ...(res.body?.results ?? []).flatMap((r: { file?: { id: string } }) => (r.file ? [r.file.id] : [])),
      );
      bId ??= uploadOne(b.client, bBeside, bFile.name, bFile.content);
    }
    result.besideSeconds = await readySeconds(b.client, await bId!, deadline);
    console.log(
      `  B's ${bFile.name} beside A's ${aIds.length} files: ready ${fmt(result.besideSeconds, 2)} s after its upload ` +
        `(${fmt(result.besideSeconds / result.aloneSeconds, 2)}x its time alone; target within 2x)`,
    );
    let lastReady = 0;
    for (const id of aIds) {
      const file = (await a.client.get(`/files/${id}`)).body;
      if (file.status !== 'ready') await readySeconds(a.client, id, deadline);
      lastReady = Math.max(lastReady, new Date((await a.client.get(`/files/${id}`)).body.readyAt).getTime());
    }
    result.bulkSeconds = (lastReady - bulkStart) / 1000;
    console.log(
      `  A's ${aIds.length} files all ready ${fmt(result.bulkSeconds, 1)} s after A's first upload ` +
        `(${fmt(aIds.length / result.bulkSeconds, 1)} files/s)`,
    );
    if (aIds.length !== SMALL_FILES) ok = false;
  } catch (error) {
    console.log(`  FAILED ${(error as Error).message}`);
    ok = false;
  } finally {
    ok = (await closeWithin('the server', () => t.close())) && ok;
    ok = (await closeWithin(`the ${engine.name} database`, () => database.stop())) && ok;
  }
  return { ...result, ok };
}
