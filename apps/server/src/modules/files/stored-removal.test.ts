import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

/** The server's log entries with this message. */
const logged = (msg: string) =>
  t.logs
    .map((line) => JSON.parse(line) as { msg?: string; key?: string })
    .filter((entry) => entry.msg === msg);

describe('stored originals the store cannot remove', () => {
  it('are logged with their key when their file is deleted, and the file is deleted all the same', async () => {
    const { client, file } = await companyWithFile(t, 'Die Heizung wird jährlich gewartet.');
    const key = (await t.storage.keys()).find((stored) => stored.endsWith(`/${file.id}`));
    expect(key).toBeDefined();
    // A folder where the original was: the local store's remove refuses it, as a store refuses what it may not delete.
    const path = join(t.dataDir, 'files', key!);
    rmSync(path);
    mkdirSync(path);

    expect((await client.delete(`/files/${file.id}`)).status).toBe(204);
    expect((await client.get(`/files/${file.id}`)).status).toBe(404);
    expect(logged('original of a deleted file not removed').map((entry) => entry.key)).toEqual([key]);
  });
});
