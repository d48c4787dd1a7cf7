import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// The default policy: no OUTBOUND_ALLOWED_HOSTS, so the fake provider on 127.0.0.1 must never be reached.
let t: TestServer;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
  t = await startTestServer({ smtp: false });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

const BLOCKED =
  'The connection to this address was refused by policy: local and private network addresses are not allowed. Your administrator can allow them.';
const KEY = 'sk-test-0123456789abcdef';

describe('the outbound policy by default', () => {
  it('refuses loopback in every spelling, and private and link-local addresses without connecting', async () => {
    const a = await signedInDataManager(t, { language: 'en' });
    const port = new URL(llm.url).port;
    for (const baseUrl of [
      llm.url,
      `http://localhost:${port}/v1`,
      `http://2130706433:${port}/v1`,
      `http://0x7f000001:${port}/v1`,
      `http://[::1]:${port}/v1`,
      `http://[::ffff:127.0.0.1]:${port}/v1`,
      'http://0.0.0.0:8080/v1',
      'http://10.0.0.1/v1',
      'http://192.168.178.1:8080/v1',
      'http://100.64.0.1/v1',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/v1',
    ]) {
      const res = await a.client.post('/ai-providers/compatible/test', { baseUrl, apiKey: KEY });
      // The policy's message: an attempt to connect to an unreachable private address would end in the provider's
      // timeout message instead.
      expect(res.body, baseUrl).toEqual({ ok: false, models: [], message: BLOCKED });
    }
    expect(llm.requests).toEqual([]);
  });

  it('ends a chat answer through a refused address as an error', async () => {
    const a = await companyWithFile(
      t,
      'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.',
    );
    const saved = await a.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: KEY,
      model: 'gpt-4o-mini',
      transcriptionModel: 'whisper-1',
    });
    expect(saved.status).toBe(200);
    const chat = await a.client.post('/chats', {
      name: 'KI',
      provider: 'openai',
      divisionIds: [a.divisionId],
    });
    const res = await stream(a.client, `/chats/${chat.body.id}/messages`, {
      content: 'Womit wird der Heizkörper entlüftet?',
    });
    expect(res.events.find((e) => e.event === 'error')!.data).toEqual({
      code: 'PROVIDER_BLOCKED',
      message: BLOCKED,
    });
    expect(res.done()).toMatchObject({ status: 'interrupted', errorCode: 'PROVIDER_BLOCKED', content: '' });

    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(4000).fill(7)], { type: 'audio/webm' }), 'voice.webm');
    const voice = await a.client.request('POST', `/chats/${chat.body.id}/transcriptions`, undefined, {
      form,
    });
    expect(voice.status).toBe(502);
    expect(voice.body.error).toMatchObject({ code: 'PROVIDER_BLOCKED', message: BLOCKED });
    expect(llm.requests).toEqual([]);
  });
});
