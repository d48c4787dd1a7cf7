import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

const MANUAL = 'Die Wartung des Brenners erfolgt jährlich im Herbst. Der Filter wird monatlich gereinigt.';
const QUESTION = { content: 'Wann wird der Brenner gewartet?' };
const PER_ASKER = 2;
const PER_LINK = 5;
const PER_COMPANY = 7;

const limits = {
  PUBLIC_CHAT_QUESTIONS_PER_HOUR: String(PER_ASKER),
  PUBLIC_CHAT_QUESTIONS_PER_LINK_PER_HOUR: String(PER_LINK),
  PUBLIC_CHAT_QUESTIONS_PER_COMPANY_PER_HOUR: String(PER_COMPANY),
};

let proxied: TestServer;
let direct: TestServer;
beforeAll(async () => {
  [proxied, direct] = await Promise.all([
    startTestServer({ smtp: false, env: { ...limits, TRUST_PROXY: 'true' } }),
    startTestServer({ smtp: false, env: { ...limits, TRUST_PROXY: 'false' } }),
  ]);
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});

/** A company's public chat and its share link. */
async function publicLink(t: TestServer, dm?: Awaited<ReturnType<typeof companyWithFile>>) {
  const owner = dm ?? (await companyWithFile(t, MANUAL));
  const chatId = (
    await owner.client.post('/chats', {
      name: 'Kundenfragen',
      visibility: 'public',
      divisionIds: [owner.divisionId],
    })
  ).body.id as string;
  const token = (await owner.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
  return { owner, token };
}

/** A browser at an address of its own (the address only counts where the server trusts the proxy). */
function browser(t: TestServer, address?: string) {
  const client = t.client().from(address);
  client.language = 'en';
  return client;
}

async function visitor(t: TestServer, token: string, client = browser(t)) {
  const joined = await client.post(`/public/chats/${token}/visitor`, {
    botCheck: await solvedAltcha(client),
  });
  expect(joined.status).toBe(200);
  return client;
}

const ask = (client: ApiClient, token: string) => stream(client, `/public/chats/${token}/messages`, QUESTION);

describe('behind a trusted proxy', () => {
  it('counts a visitor’s questions whatever address they come from, and an address’s whatever visitor asks', async () => {
    const { token } = await publicLink(proxied);
    const first = await visitor(proxied, token);
    const home = first.headers['x-forwarded-for']!;
    for (let i = 0; i < PER_ASKER; i++) expect((await ask(first, token)).status).toBe(200);
    // The same visitor (its cookie) from another address.
    first.from();
    const moved = await ask(first, token);
    expect(moved.status).toBe(429);
    expect(moved.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'visitor' } });
    expect(Number(moved.headers.get('retry-after'))).toBeGreaterThan(0);

    // A new visitor from the address that used up its questions.
    const sameAddress = browser(proxied, home);
    const refused = await ask(await visitor(proxied, token, sameAddress), token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'address' } });
  });

  it('answers exactly the limit to parallel questions of one visitor', async () => {
    const { token } = await publicLink(proxied);
    const client = await visitor(proxied, token);
    const results = await Promise.all(Array.from({ length: 6 }, () => ask(client, token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(PER_ASKER);
    expect(results.filter((r) => r.status === 429)).toHaveLength(6 - PER_ASKER);
  });

  it('stops a link, then a company, at their ceilings with a clear 429', async () => {
    const first = await publicLink(proxied);
    let asked = 0;
    while (asked < PER_LINK) {
      const client = await visitor(proxied, first.token);
      for (let i = 0; i < PER_ASKER && asked < PER_LINK; i++, asked++) {
        expect((await ask(client, first.token)).status).toBe(200);
      }
    }
    const busy = await ask(await visitor(proxied, first.token), first.token);
    expect(busy.status).toBe(429);
    expect(busy.body.error).toMatchObject({ code: 'PUBLIC_CHAT_BUSY', details: { scope: 'link' } });
    expect(busy.body.error.message).toMatch(/too many questions/);

    const second = await publicLink(proxied, first.owner);
    const client = await visitor(proxied, second.token);
    for (let i = 0; i < PER_COMPANY - PER_LINK; i++)
      expect((await ask(client, second.token)).status).toBe(200);
    const companyBusy = await ask(await visitor(proxied, second.token), second.token);
    expect(companyBusy.status).toBe(429);
    expect(companyBusy.body.error).toMatchObject({ code: 'PUBLIC_CHAT_BUSY', details: { scope: 'company' } });
  });
});

describe('without a trusted proxy', () => {
  it('ignores a forged X-Forwarded-For: every visitor of one address shares its limit', async () => {
    const { token } = await publicLink(direct);
    const first = await visitor(direct, token);
    for (let i = 0; i < PER_ASKER; i++) expect((await ask(first, token)).status).toBe(200);
    const second = await visitor(direct, token);
    expect(second.headers['x-forwarded-for']).not.toBe(first.headers['x-forwarded-for']);
    const refused = await ask(second, token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'address' } });
  });
});
