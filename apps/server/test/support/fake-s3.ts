import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { verifySigV4 } from './sigv4.ts';

/** S3's smallest part of a multipart upload, except the last one. */
const MIN_PART_BYTES = 5 * 1024 * 1024;

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Which S3 operation a path-style request is, by method, key and query (null: not one this server speaks). */
function operationOf(req: IncomingMessage, key: string, query: URLSearchParams): string | null {
  const method = req.method;
  if (key === '') return method === 'HEAD' ? 'HeadBucket' : null;
  if (query.has('uploads')) return method === 'POST' ? 'CreateMultipartUpload' : null;
  if (query.has('uploadId')) {
    if (method === 'POST') return 'CompleteMultipartUpload';
    if (method === 'PUT') return 'UploadPart';
    if (method === 'DELETE') return 'AbortMultipartUpload';
    return null;
  }
  if (method === 'PUT') return req.headers['x-amz-copy-source'] ? null : 'PutObject';
  if (method === 'GET') return 'GetObject';
  if (method === 'DELETE') return 'DeleteObject';
  return null;
}

class S3Error extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * A small S3-compatible server for the tests, speaking the REST protocol the AWS SDK uses for what the product
 * needs: HeadBucket, PutObject, multipart uploads (create, upload part, complete, abort), GetObject and
 * DeleteObject, path-style (`/bucket/key`). Like S3 it checks the Signature Version 4 of every request and the
 * payload's SHA-256 against the signed `x-amz-content-sha256`, and answers failures with S3's XML error body.
 * Objects are files in a temporary folder; one bucket.
 */
export class FakeS3 {
  readonly bucket = 'werkwissen-test';
  readonly region = 'us-east-1';
  readonly accessKeyId = 'WWTESTACCESSKEY';
  readonly secretAccessKey = randomBytes(30).toString('base64url');
  /** One line per request that passed the signature check: `Operation key`. */
  readonly operations: string[] = [];
  /** Part numbers whose upload this server refuses with a 500 (to see a failed upload cleaned up). */
  readonly failingParts = new Set<number>();
  url = '';
  private root = '';
  private server: Server | null = null;
  private readonly etags = new Map<string, string>();

  async start(): Promise<string> {
    this.root = await mkdtemp(join(tmpdir(), 'ww-s3-'));
    await mkdir(join(this.root, 'objects'));
    await mkdir(join(this.root, 'uploads'));
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise((resolve) => this.server!.close(resolve));
      this.server = null;
    }
    if (this.root) await rm(this.root, { recursive: true, force: true });
  }

  /** What a server needs in its environment to store its files here (under `prefix`, if given). */
  env(secret = this.secretAccessKey, prefix = ''): Record<string, string> {
    return {
      STORAGE_URL: `s3://${this.bucket}${prefix ? `/${prefix}` : ''}?endpoint=${this.url}`,
      S3_ACCESS_KEY_ID: this.accessKeyId,
      S3_SECRET_ACCESS_KEY: secret,
    };
  }

  /** The keys of the stored objects that start with `prefix`, sorted. */
  async keys(prefix = ''): Promise<string[]> {
    const names = await readdir(join(this.root, 'objects'));
    return names
      .map((name) => decodeURIComponent(name))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }

  /** Multipart uploads begun and neither completed nor aborted. */
  async pendingUploads(): Promise<number> {
    return (await readdir(join(this.root, 'uploads'))).length;
  }

  private objectPath(key: string): string {
    return join(this.root, 'objects', encodeURIComponent(key));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    res.setHeader('x-amz-request-id', requestId);
    try {
      const signed = verifySigV4(
        { method: req.method ?? '', url: req.url ?? '/', headers: req.headers },
        (id) => (id === this.accessKeyId ? this.secretAccessKey : undefined),
        this.region,
      );
      if (!signed.ok) throw new S3Error(signed.status, signed.code, signed.message);
      if (!/^[0-9a-f]{64}$/.test(signed.payloadHash))
        throw new S3Error(501, 'NotImplemented', 'This test server takes only signed single-chunk payloads.');
      await this.route(req, res, signed.payloadHash);
    } catch (error) {
      const failure =
        error instanceof S3Error ? error : new S3Error(500, 'InternalError', (error as Error).message);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Read what is left of the body first, so that the client gets the answer rather than a reset.
      req.resume();
      if (!req.complete) await new Promise((resolve) => req.on('end', resolve).on('close', resolve));
      res.statusCode = failure.status;
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/xml');
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message><RequestId>${requestId}</RequestId></Error>`,
      );
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, payloadHash: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://s3');
    const [, bucket, ...rest] = url.pathname.split('/');
    if (decodeURIComponent(bucket ?? '') !== this.bucket)
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    const key = decodeURIComponent(rest.join('/'));
    const query = url.searchParams;
    const operation = operationOf(req, key, query);
    if (!operation)
      throw new S3Error(501, 'NotImplemented', `${req.method} ${url.pathname} is not implemented here.`);
    this.operations.push(`${operation} ${key}`.trim());
    const uploadId = query.get('uploadId') ?? '';
    switch (operation) {
      case 'HeadBucket':
        res.end();
        return;
      case 'PutObject': {
        const file = await this.receive(req, payloadHash);
        await rename(file.path, this.objectPath(key));
        this.etags.set(key, file.md5);
        res.setHeader('etag', `"${file.md5}"`);
        res.end();
        return;
      }
      case 'CreateMultipartUpload': {
        await this.receive(req, payloadHash).then((f) => rm(f.path));
        const id = randomUUID();
        await mkdir(join(this.root, 'uploads', id));
        this.xml(res, 'InitiateMultipartUploadResult', { Bucket: this.bucket, Key: key, UploadId: id });
        return;
      }
      case 'UploadPart': {
        const part = Number(query.get('partNumber'));
        const dir = await this.uploadDir(uploadId);
        if (!Number.isInteger(part) || part < 1 || part > 10_000)
          throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000.');
        const file = await this.receive(req, payloadHash);
        if (this.failingParts.has(part)) {
          await rm(file.path);
          throw new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.');
        }
        await rename(file.path, join(dir, `${part}.${file.md5}`));
        res.setHeader('etag', `"${file.md5}"`);
        res.end();
        return;
      }
      case 'CompleteMultipartUpload':
        await this.complete(req, res, key, uploadId, payloadHash);
        return;
      case 'AbortMultipartUpload':
        await rm(await this.uploadDir(uploadId), { recursive: true });
        res.statusCode = 204;
        res.end();
        return;
      case 'GetObject': {
        const path = this.objectPath(key);
        const size = await stat(path).then(
          (s) => s.size,
          () => {
            throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
          },
        );
        res.setHeader('content-type', 'application/octet-stream');
        res.setHeader('content-length', String(size));
        res.setHeader('etag', `"${this.etags.get(key) ?? ''}"`);
        await pipeline(createReadStream(path), res);
        return;
      }
      case 'DeleteObject':
        await rm(this.objectPath(key), { force: true });
        this.etags.delete(key);
        res.statusCode = 204;
        res.end();
        return;
    }
  }

  /** Stores the body in a temporary file while hashing it; refuses it when it is not what was signed. */
  private async receive(req: IncomingMessage, payloadHash: string): Promise<{ path: string; md5: string }> {
    const path = join(this.root, `incoming-${randomUUID()}`);
    const sha256 = createHash('sha256');
    const md5 = createHash('md5');
    req.on('data', (chunk: Buffer) => {
      sha256.update(chunk);
      md5.update(chunk);
    });
    await pipeline(req, createWriteStream(path));
    if (sha256.digest('hex') !== payloadHash) {
      await rm(path);
      throw new S3Error(
        400,
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
      );
    }
    return { path, md5: md5.digest('hex') };
  }

  private async uploadDir(uploadId: string): Promise<string> {
    const dir = join(this.root, 'uploads', uploadId);
    if (!/^[0-9a-f-]{36}$/.test(uploadId) || !(await stat(dir).catch(() => null)))
      throw new S3Error(404, 'NoSuchUpload', 'The specified upload does not exist.');
    return dir;
  }

  /** Joins the listed parts in order into the object, checking them as S3 does. */
  private async complete(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    uploadId: string,
    payloadHash: string,
  ): Promise<void> {
    const dir = await this.uploadDir(uploadId);
    const body = await this.receive(req, payloadHash);
    const xml = (await readFile(body.path, 'utf8')).replaceAll('&quot;', '"');
    await rm(body.path);
    const listed = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
      number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1]!)?.[1]),
      etag: /<ETag>"?([0-9a-f]+)"?<\/ETag>/.exec(m[1]!)?.[1],
    }));
    if (listed.length === 0)
      throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed.');
    if (listed.some((p, i) => i > 0 && p.number <= listed[i - 1]!.number))
      throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
    const stored = new Set(await readdir(dir));
    const paths: string[] = [];
    for (const [i, part] of listed.entries()) {
      const name = `${part.number}.${part.etag}`;
      if (!stored.has(name))
        throw new S3Error(400, 'InvalidPart', 'One or more of the specified parts could not be found.');
      const path = join(dir, name);
      if (i < listed.length - 1 && (await stat(path)).size < MIN_PART_BYTES)
        throw new S3Error(
          400,
          'EntityTooSmall',
          'Your proposed upload is smaller than the minimum allowed size.',
        );
      paths.push(path);
    }
    const target = join(this.root, `incoming-${randomUUID()}`);
    const out = createWriteStream(target);
    for (const path of paths) await pipeline(createReadStream(path), out, { end: false });
    await new Promise((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve(null))),
    );
    await rename(target, this.objectPath(key));
    const etag = `${createHash('md5')
      .update(Buffer.concat(listed.map((p) => Buffer.from(p.etag!, 'hex'))))
      .digest('hex')}-${listed.length}`;
    this.etags.set(key, etag);
    await rm(dir, { recursive: true });
    this.xml(res, 'CompleteMultipartUploadResult', {
      Location: `${this.url}/${this.bucket}/${key}`,
      Bucket: this.bucket,
      Key: key,
      ETag: `"${etag}"`,
    });
  }

  private xml(res: ServerResponse, root: string, fields: Record<string, string>): void {
    const inner = Object.entries(fields)
      .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
      .join('');
    res.setHeader('content-type', 'application/xml');
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${inner}</${root}>`,
    );
  }
}
