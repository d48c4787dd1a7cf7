import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeS3 } from '../../../test/support/fake-s3.ts';
import { freePort } from '../../../test/support/processes.ts';
import { storageConfig } from '../../../test/support/test-storage.ts';
import { type OpenedStorage, openFileStorage } from './create-file-storage.ts';

let s3: FakeS3;
let dataDir: string;
beforeAll(async () => {
  s3 = new FakeS3();
  await s3.start();
  dataDir = mkdtempSync(join(tmpdir(), 'ww-s3-store-'));
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const open = (env: Record<string, string>) => openFileStorage(storageConfig(dataDir, env));

/** A client of the test double that signs with `secret`. */
const clientWith = (secret: string) =>
  new S3Client({
    endpoint: s3.url,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: secret },
    maxAttempts: 1,
  });

describe('the S3 file store', () => {
  let opened: OpenedStorage;
  beforeAll(async () => {
    opened = await open(s3.env(s3.secretAccessKey, 'tenant-a'));
  });
  afterAll(() => opened?.close());

  it('keeps objects under the URL prefix: small ones in one request, large ones in parts of 5 MB', async () => {
    const { storage } = opened;
    s3.operations.length = 0;
    await storage.commit((await storage.stage(Readable.from([Buffer.from('klein')]))).key, 'c1/small');
    const large = randomBytes(12 * 1024 * 1024);
    await storage.commit((await storage.stage(Readable.from([large]))).key, 'c1/large');
    expect(s3.operations.filter((op) => !op.startsWith('UploadPart'))).toEqual([
      'PutObject tenant-a/c1/small',
      'CreateMultipartUpload tenant-a/c1/large',
      'CompleteMultipartUpload tenant-a/c1/large',
    ]);
    expect(s3.operations.filter((op) => op.startsWith('UploadPart'))).toHaveLength(3);
    expect(await s3.keys('tenant-a/c1/')).toEqual(['tenant-a/c1/large', 'tenant-a/c1/small']);
  });

  it('aborts a multipart upload whose part fails, leaving no parts and no object behind', async () => {
    const { storage } = opened;
    s3.failingParts.add(2);
    try {
      const staged = await storage.stage(Readable.from([randomBytes(11 * 1024 * 1024)]));
      await expect(storage.commit(staged.key, 'c1/broken')).rejects.toThrow();
      expect(s3.operations).toContain('AbortMultipartUpload tenant-a/c1/broken');
      expect(await s3.pendingUploads()).toBe(0);
      expect(await s3.keys('tenant-a/c1/broken')).toEqual([]);
      // The staged copy is the caller's to remove (the upload does, whatever happened).
      await storage.remove(staged.key);
      expect(readdirSync(join(dataDir, 'files', 'tmp'))).toEqual([]);
    } finally {
      s3.failingParts.clear();
    }
  }, 30_000);
});

describe('the S3 test double checks requests as S3 does', () => {
  it("refuses a wrong secret with S3's SignatureDoesNotMatch (403), and stores nothing", async () => {
    const error = await clientWith('not-the-secret')
      .send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'probe', Body: 'x' }))
      .catch((e: unknown) => e as { name: string; message: string; $metadata: { httpStatusCode: number } });
    expect(error).toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } });
    expect((error as Error).message).toMatch(/does not match the signature you provided/);
    expect(await s3.keys('probe')).toEqual([]);
  });

  it('refuses a body other than the one that was signed', async () => {
    const client = clientWith(s3.secretAccessKey);
    // After signing, swap the body for another of the same length.
    client.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { body: unknown }).body = Buffer.from('falsified');
        return next(args);
      },
      { step: 'deserialize' },
    );
    const error = await client
      .send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'tampered', Body: Buffer.from('originals') }))
      .catch((e: unknown) => e as { name: string });
    expect(error).toMatchObject({ name: 'XAmzContentSHA256Mismatch' });
    expect(await s3.keys('tampered')).toEqual([]);
  });
});

describe('the start-up check of the bucket', () => {
  it('names the keys when the secret is wrong', async () => {
    await expect(open(s3.env('not-the-secret'))).rejects.toThrow(
      /refused access to bucket "werkwissen-test" at http:\/\/127\.0\.0\.1:\d+ \(403\): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
  });

  it('says when the bucket does not exist', async () => {
    const env = { ...s3.env(), STORAGE_URL: `s3://no-such-bucket?endpoint=${s3.url}` };
    await expect(open(env)).rejects.toThrow(/The S3 bucket "no-such-bucket" does not exist at http:/);
  });

  it('says when the storage cannot be reached', async () => {
    const env = {
      ...s3.env(),
      STORAGE_URL: `s3://${s3.bucket}?endpoint=http://127.0.0.1:${await freePort()}`,
    };
    await expect(open(env)).rejects.toThrow(/The S3 storage at http:\/\/127\.0\.0\.1:\d+ cannot be reached/);
  }, 30_000);
});
