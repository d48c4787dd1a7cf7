import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeDocx, waitForFile } from './support/documents.ts';
import { spawnServer } from './support/processes.ts';
import { TEST_SECRETS } from './support/test-database.ts';
import { signedInDataManager, startTestServer } from './support/test-server.ts';

/** `npm run backup` and `npm run restore` of the embedded default, run as the commands they are. */

const root = mkdtempSync(join(tmpdir(), 'ww-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the backup or restore command with a DATA_DIR; resolves with its exit code and output. */
async function command(name: 'backup' | 'restore', folder: string, dataDir: string) {
  const proc = spawnServer([folder], { DATA_DIR: dataDir }, `src/ops/${name}.ts`);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

it('backs up a stopped server and restores it into a new folder, where the user signs in and finds the file', async () => {
  const original = join(root, 'data');
  const backup = join(root, 'backup');
  const restored = join(root, 'restored');
  const t = await startTestServer({ dataDir: original, smtp: false });
  const dm = await signedInDataManager(t, { language: 'en' });
  const divisionId = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
  const content = await makeDocx([{ heading: 'Wartung' }, { text: 'Der Brenner wird jährlich gewartet.' }]);
  const up = await dm.client.upload(`/divisions/${divisionId}/files`, [{ name: 'Wartung.docx', content }]);
  const fileId = up.body.results[0].file.id as string;
  expect((await waitForFile(dm.client, fileId)).status).toBe('ready');

  // While the server runs, the data folder is locked: a backup would not be consistent.
  const refused = await command('backup', backup, original);
  expect(refused.code).toBe(1);
  expect(refused.output).toContain('is already using the data folder');
  expect(existsSync(join(backup, 'backup.json'))).toBe(false);
  await t.close();
  // What `npm start` generates into a data folder (test servers are given their secrets instead).
  writeFileSync(join(original, 'secrets.json'), `${JSON.stringify(TEST_SECRETS)}\n`);

  const made = await command('backup', backup, original);
  expect(made.output).toContain(`to ${backup}`);
  expect(made.code).toBe(0);
  // A backup never overwrites one, and a restore never lands on data.
  expect((await command('backup', backup, original)).code).toBe(1);
  const onData = await command('restore', backup, original);
  expect(onData.code).toBe(1);
  expect(onData.output).toContain('is not empty');

  const done = await command('restore', backup, restored);
  expect(done.output).toContain(`into ${restored}`);
  expect(done.code).toBe(0);
  expect(readFileSync(join(restored, 'secrets.json'), 'utf8')).toBe(
    readFileSync(join(original, 'secrets.json'), 'utf8'),
  );
  // The backup stands on its own: the original folder may be gone.
  rmSync(original, { recursive: true, force: true });

  const again = await startTestServer({ dataDir: restored, smtp: false });
  try {
    const client = again.client();
    const login = await client.post('/auth/login', { email: dm.email, password: dm.password, area: 'user' });
    expect(login.status).toBe(200);
    const file = await client.get(`/files/${fileId}`);
    expect(file.body).toMatchObject({ id: fileId, name: 'Wartung.docx', status: 'ready' });
    const bytes = await fetch(`${again.url}/api/v1/files/${fileId}/content`, {
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(content)).toBe(true);
  } finally {
    await again.close();
  }
}, 240_000);

it('refuses a folder that is not a backup', async () => {
  const notBackup = join(root, 'not-a-backup');
  const res = await command('restore', notBackup, join(root, 'elsewhere'));
  expect(res.code).toBe(1);
  expect(res.output).toContain('is not a backup');
});
