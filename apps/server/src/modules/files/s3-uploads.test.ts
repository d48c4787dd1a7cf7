import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeS3 } from '../../../test/support/fake-s3.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// Uploads through the API into a bucket of the S3 test double. The API role alone: nothing processes the files,
// which these tests do not need (the file tests run on S3 as a whole in the `server-s3` project).
let s3: FakeS3;
let t: TestServer;
beforeAll(async () => {
  s3 = new FakeS3();
  await s3.start();
  t = await startTestServer({ smtp: false, role: 'api', env: s3.env() });
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

async function setUp() {
  const dm = await signedInDataManager(t, { language: 'en' });
  const divisionId = (await dm.client.post('/divisions', { name: 'Archiv' })).body.id as string;
  return { ...dm, companyId: dm.me.userData.companyId as string, divisionId };
}

/** About 7 MB of text: more than one 5 MB part. */
const largeText = () =>
  Buffer.from('Zeile: Heizkörper, Ventile und Thermostate im Keller.\n'.repeat(130_000));

describe('uploads into an S3 bucket', () => {
  it('streams a large file into the bucket in parts and the download back out', async () => {
    const { client, companyId, divisionId } = await setUp();
    const content = largeText();
    s3.operations.length = 0;
    const up = await client.upload(`/divisions/${divisionId}/files`, [{ name: 'Keller.txt', content }]);
    expect(up.status).toBe(201);
    const fileId = up.body.results[0].file.id as string;
    const key = `${companyId}/${fileId}`;
    expect(s3.operations.filter((op) => op.endsWith(key))).toEqual(
      ['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload'].map(
        (op) => `${op} ${key}`,
      ),
    );
    const download = await fetch(`${t.url}/api/v1/files/${fileId}/content?download=1`, {
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(content.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
    expect(readdirSync(join(t.dataDir, 'files', 'tmp'))).toEqual([]);
    expect(t.logs.join('')).not.toContain(s3.secretAccessKey);
  });

  it('answers a commit the bucket refuses with a server error, keeping nothing staged or half-uploaded', async () => {
    const { client, companyId, divisionId } = await setUp();
    s3.failingParts.add(2);
    try {
      const up = await client.upload(`/divisions/${divisionId}/files`, [
        { name: 'Keller.txt', content: largeText() },
      ]);
      expect(up.status).toBe(500);
      expect(up.body.error.code).toBe('INTERNAL');
    } finally {
      s3.failingParts.clear();
    }
    expect(readdirSync(join(t.dataDir, 'files', 'tmp'))).toEqual([]);
    expect(await s3.pendingUploads()).toBe(0);
    expect(await s3.keys(`${companyId}/`)).toEqual([]);
    expect((await client.get(`/divisions/${divisionId}/files`)).body.total).toBe(0);
  }, 30_000);

  it('refuses to start when the secret is wrong, naming the settings to check', async () => {
    await expect(startTestServer({ smtp: false, env: s3.env('not-the-secret') })).rejects.toThrow(
      /refused access to bucket "werkwissen-test" .*check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
  });
});
