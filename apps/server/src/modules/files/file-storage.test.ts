import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeS3 } from '../../../test/support/fake-s3.ts';
import { storageConfig } from '../../../test/support/test-storage.ts';
import { openFileStorage } from './create-file-storage.ts';
import type { FileStorage } from './file-storage.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const bytesOf = async (stream: Readable) => Buffer.concat(await stream.toArray());

interface Store {
  storage: FileStorage;
  dataDir: string;
  close(): Promise<void>;
}

async function localStore(): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-store-'));
  const { storage } = await openFileStorage(storageConfig(dataDir));
  return { storage, dataDir, close: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function s3Store(): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-store-'));
  const s3 = new FakeS3();
  await s3.start();
  const opened = await openFileStorage(storageConfig(dataDir, s3.env(s3.secretAccessKey, 'werkwissen/test')));
  return {
    storage: opened.storage,
    dataDir,
    async close() {
      opened.close();
      await s3.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// One contract, two implementations: what the upload and processing code relies on holds for both stores.
describe.each([
  ['the local folder', localStore],
  ['an S3 bucket', s3Store],
])('the file store in %s', (_name, open) => {
  let store: Store;
  let storage: FileStorage;
  beforeAll(async () => {
    store = await open();
    storage = store.storage;
  });
  afterAll(() => store?.close());
  const staging = () => readdirSync(join(store.dataDir, 'files', 'tmp'));
  /** Files in the data folder that are neither stored objects of the local folder nor staged uploads. */
  const others = () =>
    readdirSync(store.dataDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(store.dataDir, join(entry.parentPath, entry.name)))
      .filter((path) => !path.startsWith(`files${sep}`));

  it('stages while hashing and counting, commits under the final key and reads the same bytes back', async () => {
    const content = Buffer.from('Der Filter wird alle sechs Monate gereinigt. Größe: 300 Liter.');
    const staged = await storage.stage(Readable.from([content.subarray(0, 10), content.subarray(10)]));
    expect(staged).toMatchObject({ sizeBytes: content.length, sha256: sha256(content) });
    await storage.commit(staged.key, 'company-1/file-1');
    expect(staging()).toEqual([]);
    expect((await bytesOf(await storage.read('company-1/file-1'))).equals(content)).toBe(true);
  });

  it('streams a file of several upload parts in and out intact', async () => {
    const content = randomBytes(11 * 1024 * 1024 + 123);
    const staged = await storage.stage(Readable.from([content]));
    await storage.commit(staged.key, 'company-1/large');
    const back = await bytesOf(await storage.read('company-1/large'));
    expect(back.length).toBe(content.length);
    expect(sha256(back)).toBe(sha256(content));
  });

  it('lends a local file of a staged or committed object, and keeps no copy afterwards', async () => {
    const staged = await storage.stage(Readable.from([Buffer.from('%PDF-1.7 staged')]));
    expect(await storage.withLocalFile(staged.key, async (path) => readFileSync(path, 'utf8'))).toBe(
      '%PDF-1.7 staged',
    );
    await storage.commit(staged.key, 'company-1/lent');
    const lent = await storage.withLocalFile('company-1/lent', async (path) => {
      // A parser's copy is no upload in flight: the staging folder stays for those.
      expect(staging()).toEqual([]);
      return readFileSync(path, 'utf8');
    });
    expect(lent).toBe('%PDF-1.7 staged');
    await expect(
      storage.withLocalFile('company-1/lent', async () => {
        throw new Error('parser failed');
      }),
    ).rejects.toThrow('parser failed');
    expect(staging()).toEqual([]);
    expect(others()).toEqual([]);
  });

  it('removes staged and committed objects; an absent one is no error', async () => {
    const staged = await storage.stage(Readable.from([Buffer.from('weg damit')]));
    await storage.remove(staged.key);
    expect(staging()).toEqual([]);
    const again = await storage.stage(Readable.from([Buffer.from('weg damit')]));
    await storage.commit(again.key, 'company-1/gone');
    await storage.remove('company-1/gone');
    await expect(storage.read('company-1/gone')).rejects.toThrow();
    await storage.remove('company-1/never-there');
  });

  it('writes, replaces and reads work files, and answers null for a missing one', async () => {
    await storage.writeJson('work/file-1-0.chunks.json', { chunks: ['a'], sprache: 'de' });
    await storage.writeJson('work/file-1-0.chunks.json', { chunks: ['a', 'b'], sprache: 'de' });
    expect(await storage.readJson('work/file-1-0.chunks.json')).toEqual({
      chunks: ['a', 'b'],
      sprache: 'de',
    });
    expect(await storage.readJson('work/missing.chunks.json')).toBeNull();
  });

  it('keeps nothing of streams that fail while staging', async () => {
    const failing = () =>
      new Readable({
        read() {
          this.push(Buffer.alloc(1024, 1));
          this.destroy(new Error('client went away'));
        },
      });
    // Many at once: a file that was still being opened when its stream failed once appeared after its removal.
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => storage.stage(failing())));
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'staged'))).toEqual(
      Array(40).fill('client went away'),
    );
    // A moment for an open still under way to land, which is what this test is about.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(staging()).toEqual([]);
  });

  it('refuses keys that could leave the store', async () => {
    await expect(storage.read('../secrets.json')).rejects.toThrow('unsafe storage key');
    await expect(storage.writeJson('work/../../x', {})).rejects.toThrow('unsafe storage key');
  });

  it('streams a download without reading it whole first', async () => {
    const content = Buffer.alloc(3 * 1024 * 1024, 7);
    const staged = await storage.stage(Readable.from([content]));
    await storage.commit(staged.key, 'company-1/stream');
    const stream = await storage.read('company-1/stream');
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    expect(first.length).toBeLessThan(content.length);
    stream.destroy();
    expect(await text(await storage.read('company-1/stream')).then((s) => s.length)).toBe(content.length);
  });
});
