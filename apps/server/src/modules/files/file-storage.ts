import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Where originals live: the local folder `DATA_DIR/files` by default (`local-file-storage.ts`), or an S3-compatible
 * bucket (`s3-file-storage.ts`), chosen by STORAGE_URL (`create-file-storage.ts`). An upload is staged while it is
 * hashed, checked, then committed under its final key; it is read back as a stream.
 */
export interface FileStorage {
  /** Writes a stream to a staging key, hashing and counting it on the way. */
  stage(source: Readable): Promise<StoredObject>;
  /** Moves a staged object to its final key. */
  commit(stagedKey: string, key: string): Promise<void>;
  /** The object as a stream; rejects when there is none. */
  read(key: string): Promise<Readable>;
  /**
   * Runs `use` with the path of a local file holding the object (for the type sniffer and the parsers): the local
   * store's own file, or for a remote one a temporary copy that is removed when `use` has finished.
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  /** Removes an object, staged or committed; an absent one is no error. */
  remove(key: string): Promise<void>;
  /** Small work files of the processing chain (e.g. a file's passages between two steps). */
  writeJson(key: string, value: unknown): Promise<void>;
  readJson<T>(key: string): Promise<T | null>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

/** Keys are ours (`<companyId>/<fileId>`, `work/...`); this refuses anything that could leave the store's root. */
export function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
  return key;
}
