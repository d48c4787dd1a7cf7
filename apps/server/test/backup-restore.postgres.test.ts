import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeDocx, waitForFile } from './support/documents.ts';
import { createTestDatabase, postgresSecrets } from './support/test-database.ts';
import { signedInDataManager, startTestServer } from './support/test-server.ts';

/** The README's way of backing up and restoring an installation on PostgreSQL: pg_dump, pg_restore, the files. */

const root = mkdtempSync(join(tmpdir(), 'ww-pgbackup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  expect(result.status, `${command}: ${result.stderr}`).toBe(0);
}

it('restores a pg_dump and the files folder into a new database, where the user signs in and finds the file', async () => {
  const t = await startTestServer({ dataDir: join(root, 'data'), smtp: false });
  const dm = await signedInDataManager(t, { language: 'en' });
  const divisionId = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
  const content = await makeDocx([{ heading: 'Wartung' }, { text: 'Der Brenner wird jährlich gewartet.' }]);
  const up = await dm.client.upload(`/divisions/${divisionId}/files`, [{ name: 'Wartung.docx', content }]);
  const fileId = up.body.results[0].file.id as string;
  expect((await waitForFile(dm.client, fileId)).status).toBe('ready');

  // Taken while the server runs: pg_dump reads one snapshot.
  const dump = join(root, 'werkwissen.dump');
  run('pg_dump', ['--format=custom', `--file=${dump}`, t.server.databaseUrl]);
  await t.close();
  await (await createTestDatabase(join(root, 'data'))).drop();

  const target = await createTestDatabase();
  const restoredDir = join(root, 'restored');
  try {
    run('pg_restore', ['--no-owner', `--dbname=${target.url}`, dump]);
    cpSync(join(root, 'data', 'files'), join(restoredDir, 'files'), { recursive: true });
    const again = await startTestServer({
      dataDir: restoredDir,
      smtp: false,
      env: { DATABASE_URL: target.url, ...postgresSecrets },
    });
    try {
      const client = again.client();
      const login = await client.post('/auth/login', {
        email: dm.email,
        password: dm.password,
        area: 'user',
      });
      expect(login.status).toBe(200);
      expect((await client.get(`/files/${fileId}`)).body).toMatchObject({
        name: 'Wartung.docx',
        status: 'ready',
      });
      const bytes = await fetch(`${again.url}/api/v1/files/${fileId}/content`, {
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      expect(Buffer.from(await bytes.arrayBuffer()).equals(content)).toBe(true);
    } finally {
      await again.close();
    }
  } finally {
    await target.drop();
  }
}, 240_000);
