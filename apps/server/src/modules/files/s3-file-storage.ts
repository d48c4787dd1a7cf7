import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Location } from '@werkwissen/shared';
import { checkedKey, type FileStorage, type StoredObject } from './file-storage.ts';
import { isStagedKey, type LocalFileStorage } from './local-file-storage.ts';

/** Size of one part of a multipart upload: S3's minimum. A commit holds at most UPLOAD_QUEUE parts in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_QUEUE = 4;

/**
 * Files in an S3-compatible bucket, under the URL's prefix. An upload is staged in the local staging folder (where
 * it is hashed and its type sniffed) and streamed to the bucket only when it is committed, in parts of 5 MB; a
 * rejected upload never reaches the bucket. Parsers get a temporary local copy (in `copies`); downloads stream from
 * the bucket.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly location: S3Location;
  private readonly staging: LocalFileStorage;
  /** Folder of the parsers' temporary copies (apart from staging, which holds only uploads in flight). */
  private readonly copies: string;
  constructor(client: S3Client, location: S3Location, staging: LocalFileStorage, copies: string) {
    this.client = client;
    this.location = location;
    this.staging = staging;
    this.copies = copies;
  }

  private object(key: string) {
    return { Bucket: this.location.bucket, Key: `${this.location.prefix}${checkedKey(key)}` };
  }

  /** Fails with a message for the operator when the bucket cannot be used (run at start). */
  async check(): Promise<void> {
    const { bucket, endpoint, region } = this.location;
    const where = endpoint ?? `Amazon S3 (${region})`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 403)
        throw new Error(
          `The S3 storage refused access to bucket "${bucket}" at ${where} (403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that this key may read and write the bucket.`,
        );
      if (status === 404)
        throw new Error(
          `The S3 bucket "${bucket}" does not exist at ${where}: create it, or correct STORAGE_URL.`,
        );
      if (status)
        throw new Error(
          `The S3 storage at ${where} answered ${status} for bucket "${bucket}": check STORAGE_URL.`,
        );
      throw new Error(`The S3 storage at ${where} cannot be reached: ${(error as Error).message}`);
    }
  }

  stage(source: Readable): Promise<StoredObject> {
    return this.staging.stage(source);
  }

  async commit(stagedKey: string, key: string): Promise<void> {
    await this.staging.withLocalFile(stagedKey, (path) =>
      new Upload({
        client: this.client,
        params: { ...this.object(key), Body: createReadStream(path) },
        partSize: PART_BYTES,
        queueSize: UPLOAD_QUEUE,
      }).done(),
    );
    await this.staging.remove(stagedKey);
  }

  async read(key: string): Promise<Readable> {
    const { Body } = await this.client.send(new GetObjectCommand(this.object(key)));
    if (!(Body instanceof Readable)) throw new Error(`no stream for storage key ${key}`);
    return Body;
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    if (isStagedKey(key)) return this.staging.withLocalFile(key, use);
    await mkdir(this.copies, { recursive: true });
    const copy = join(this.copies, randomUUID());
    try {
      await pipeline(await this.read(key), createWriteStream(copy));
      return await use(copy);
    } finally {
      await rm(copy, { force: true });
    }
  }

  async remove(key: string): Promise<void> {
    if (isStagedKey(key)) return this.staging.remove(key);
    await this.client.send(new DeleteObjectCommand(this.object(key)));
  }

  async writeJson(key: string, value: unknown): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        ...this.object(key),
        Body: JSON.stringify(value),
        ContentType: 'application/json',
      }),
    );
  }

  async readJson<T>(key: string): Promise<T | null> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand(this.object(key)));
      return JSON.parse(await Body!.transformToString('utf8')) as T;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }
}
