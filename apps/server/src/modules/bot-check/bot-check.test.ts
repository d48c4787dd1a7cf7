import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ww-altcha-'));
let t: TestServer | null = null;
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ALTCHA replay protection', () => {
  it('refuses a solved challenge a second time, also after a restart', async () => {
    t = await startTestServer({ smtp: false, dataDir });
    const dm = await signedInDataManager(t);
    const divisionId = (await dm.client.post('/divisions', { name: 'Vertrieb' })).body.id as string;
    const chatId = (
      await dm.client.post('/chats', { name: 'Fragen', visibility: 'public', divisionIds: [divisionId] })
    ).body.id as string;
    const token = (await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string;

    const botCheck = await solvedAltcha(t.client());
    expect((await t.client().post(`/public/chats/${token}/visitor`, { botCheck })).status).toBe(200);
    const again = await t.client().post(`/public/chats/${token}/visitor`, { botCheck });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('BOT_CHECK_FAILED');

    const fresh = await solvedAltcha(t.client());
    await t.close();
    t = await startTestServer({ smtp: false, dataDir });
    const afterRestart = await t.client().post(`/public/chats/${token}/visitor`, { botCheck });
    expect(afterRestart.body.error?.code).toBe('BOT_CHECK_FAILED');
    // A challenge solved before the restart but never used still works.
    expect((await t.client().post(`/public/chats/${token}/visitor`, { botCheck: fresh })).status).toBe(200);
    // Two server starts inside one test: each has the hooks' 120 s on a loaded machine.
  }, 240_000);
});
