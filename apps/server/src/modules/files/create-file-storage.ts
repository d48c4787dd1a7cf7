import { join } from 'node:path';
import { parseStorageUrl } from '@werkwissen/shared';
import type { ServerConfig } from '../../config/load-config.ts';
import type { FileStorage } from './file-storage.ts';
import { LocalFileStorage } from './local-file-storage.ts';

export interface OpenedStorage {
  storage: FileStorage;
  /** Closes the store's connections (nothing to close for the local folder). */
  close(): void;
}

/**
 * The file store STORAGE_URL names: without it the folder `files` in DATA_DIR; with an s3:// URL that bucket, checked
 * at once, so that a wrong key or bucket stops the start instead of failing the first upload. Either way uploads
 * are staged in `DATA_DIR/files/tmp`; the parsers' copies of objects in a bucket go to `DATA_DIR/parser-copies`.
 */
export async function openFileStorage(config: ServerConfig): Promise<OpenedStorage> {
  const local = new LocalFileStorage(join(config.dataDir, 'files'));
  if (!config.STORAGE_URL) return { storage: local, close: () => {} };
  const parsed = parseStorageUrl(config.STORAGE_URL);
  if (!parsed.ok) throw new Error(`STORAGE_URL ${parsed.error}`);
  // Loaded only here: an installation without a bucket does not load the SDK at every start.
  const [{ S3Client }, { S3FileStorage }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('./s3-file-storage.ts'),
  ]);
  const { endpoint, region, forcePathStyle } = parsed.location;
  const client = new S3Client({
    endpoint,
    region,
    forcePathStyle,
    // The configuration schema requires both keys with STORAGE_URL.
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID!, secretAccessKey: config.S3_SECRET_ACCESS_KEY! },
    // Since 3.729 the SDK adds CRC32 checksums to every upload, which several S3-compatible servers refuse; the
    // signed SHA-256 of each request's payload already guards what is sent.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const storage = new S3FileStorage(client, parsed.location, local, join(config.dataDir, 'parser-copies'));
  try {
    await storage.check();
  } catch (error) {
    client.destroy();
    throw error;
  }
  return { storage, close: () => client.destroy() };
}
