import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  key: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Where originals live. The local folder is the embedded default; an S3-compatible store implements the same
 * interface (stage while hashing, then commit under the final key, read back as a stream, delete).
 */
export interface FileStorage {
  /** Writes a stream to a staging key, hashing it on the way. */
  stage(source: Readable): Promise<StoredObject>;
  commit(stagedKey: string, key: string): Promise<void>;
  read(key: string): Readable;
  /** A local path for parsers; local storage answers its own path, remote stores download to a temp file. */
  localPath(key: string): Promise<string>;
  remove(key: string): Promise<void>;
  /** Small work files of the processing chain (e.g. a file's passages between two steps). */
  writeJson(key: string, value: unknown): Promise<void>;
  readJson<T>(key: string): Promise<T | null>;
  exists(key: string): Promise<boolean>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

/** Files under `DATA_DIR/files`, staged in `tmp/` and renamed into place (atomic on one file system). */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  async stage(source: Readable): Promise<StoredObject> {
    const key = `tmp/${randomUUID()}`;
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let sizeBytes = 0;
    source.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      sizeBytes += chunk.length;
    });
    try {
      await pipeline(source, createWriteStream(target));
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

  read(key: string): Readable {
    return createReadStream(this.resolve(key));
  }

  async localPath(key: string): Promise<string> {
    return this.resolve(key);
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

  async exists(key: string): Promise<boolean> {
    return stat(this.resolve(key)).then(
      () => true,
      () => false,
    );
  }
}
