import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedKey, type FileStorage, type StoredObject } from './file-storage.ts';

/** Staged objects live under this prefix until they are committed or removed. */
const STAGING_PREFIX = 'tmp/';

export const isStagedKey = (key: string) => key.startsWith(STAGING_PREFIX);

/** Files under `DATA_DIR/files`, staged in `tmp/` and renamed into place (atomic on one file system). */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  private resolve(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  async stage(source: Readable): Promise<StoredObject> {
    const key = `${STAGING_PREFIX}${randomUUID()}`;
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Opened before the pipeline: a stream that fails at once would otherwise reject the pipeline while the file is
    // still being opened, and the file would appear after its removal below.
    const file = await open(target, 'w');
    const hash = createHash('sha256');
    let sizeBytes = 0;
    source.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      sizeBytes += chunk.length;
    });
    try {
      await pipeline(source, file.createWriteStream());
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    return { key, sizeBytes, sha256: hash.digest('hex') };
  }

  async commit(stagedKey: string, key: string): Promise<void> {
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(this.resolve(stagedKey), target);
  }

  async read(key: string): Promise<Readable> {
    // Opened here, so that a missing file fails before an answer has started.
    const handle = await open(this.resolve(key), 'r');
    return handle.createReadStream();
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.resolve(key));
  }

  async remove(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  async writeJson(key: string, value: unknown): Promise<void> {
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    const staged = `${target}.${randomUUID()}.part`;
    await writeFile(staged, JSON.stringify(value));
    await rename(staged, target);
  }

  async readJson<T>(key: string): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.resolve(key), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}
