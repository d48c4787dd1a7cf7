import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { widgetFrameAncestors } from './chat-widget.service.ts';

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';
const QUESTION = { content: 'Womit wird der Heizkörper entlüftet?' };
const PER_ASKER = 2;
const SHOP = 'https://shop.example';

let t: TestServer;
beforeAll(async () => {
  // Behind a trusted proxy, so that every test's visitor asks from an address of its own.
  t = await startTestServer({
    smtp: false,
    env: { PUBLIC_CHAT_QUESTIONS_PER_HOUR: String(PER_ASKER), TRUST_PROXY: 'true' },
  });
});
afterAll(async () => {
  await t?.close();
});

type Owner = Awaited<ReturnType<typeof companyWithFile>>;

/** A company's public chat, shared by a link unless told otherwise. */
async function publicChat(owner?: Owner, options: { shared?: boolean; visibility?: string } = {}) {
  const dm = owner ?? (await companyWithFile(t, MANUAL));
  const chatId = (
    await dm.client.post('/chats', {
      name: 'Kundenfragen',
      visibility: options.visibility ?? 'public',
      divisionIds: [dm.divisionId],
    })
  ).body.id as string;
  const token =
    options.shared === false
      ? null
      : ((await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string | null);
  return { dm, chatId, token: token ?? '' };
}

/** A browser on a website, in its widget frame: no cookies of ours reach it, only the token it keeps. */
function frame(): ApiClient {
  const client = t.client().from();
  client.language = 'en';
  return client;
}

async function joinWidget(client: ApiClient, token: string) {
  const joined = await client.post(`/public/widgets/${token}/visitor`, {
    botCheck: await solvedAltcha(client),
  });
  expect(joined.status).toBe(200);
  expect(client.cookies.has('ww_visitor')).toBe(false);
  client.headers['x-visitor-token'] = joined.body.visitorToken;
  return joined.body;
}

describe('widget settings', () => {
  it('turns a shared public chat into a widget with normalized origins, and off again', async () => {
    const { dm, chatId } = await publicChat();
    expect((await dm.client.get(`/chats/${chatId}/widget`)).body).toEqual({ enabled: false, origins: [] });
    const on = await dm.client.put(`/chats/${chatId}/widget`, {
      enabled: true,
      origins: ['https://Shop.Example:443/', 'http://localhost:8080', SHOP, 'https://bücher.example'],
    });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({
      enabled: true,
      origins: [SHOP, 'http://localhost:8080', 'https://xn--bcher-kva.example'],
    });
    expect((await dm.client.get(`/chats/${chatId}/widget`)).body).toEqual(on.body);
    // Off keeps the websites for later.
    const off = await dm.client.put(`/chats/${chatId}/widget`, { enabled: false, origins: on.body.origins });
    expect(off.body.enabled).toBe(false);

    // Made private, the chat loses its link and its widget: made public and shared again, the widget stays off.
    await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: [SHOP] });
    await dm.client.patch(`/chats/${chatId}`, { visibility: 'private' });
    await dm.client.patch(`/chats/${chatId}`, { visibility: 'public' });
    const token = (await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
    expect((await dm.client.get(`/chats/${chatId}/widget`)).body).toEqual({
      enabled: false,
      origins: [SHOP],
    });
    expect(await widgetFrameAncestors(t.server.ctx, token)).toEqual([]);
  });

  it.each([
    ['a path', 'https://shop.example/kontakt'],
    ['a query', 'https://shop.example?x=1'],
    ['a fragment', 'https://shop.example#top'],
    ['a wildcard', 'https://*.shop.example'],
    ['a bare wildcard', '*'],
    ['another scheme', 'ftp://shop.example'],
    ['no scheme', 'shop.example'],
    ['a user', 'https://admin@shop.example'],
    ['a header injection', 'https://shop.example;script-src'],
    ['a list in one line', 'https://a.example https://b.example'],
    ['a comma', 'https://a.example,b.example'],
    ['the keyword', "'self'"],
    ['nothing', ''],
  ])('refuses an origin with %s, translated, on its line', async (_what, origin) => {
    const { dm, chatId } = await publicChat();
    const res = await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: [SHOP, origin] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.fields).toEqual([
      expect.objectContaining({
        field: 'origins.1',
        code: 'validation.origin',
        message: expect.stringMatching(/without a path/),
      }),
    ]);
    expect((await dm.client.get(`/chats/${chatId}/widget`)).body.enabled).toBe(false);
  });

  it('refuses a widget without websites, too many websites, and unknown fields', async () => {
    const { dm, chatId } = await publicChat();
    const none = await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: [] });
    expect(none.status).toBe(422);
    expect(none.body.error.details.fields[0]).toMatchObject({
      field: 'origins',
      code: 'validation.originsRequired',
    });
    const many = Array.from({ length: 21 }, (_, i) => `https://shop${i}.example`);
    const tooMany = await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: many });
    expect(tooMany.body.error.details.fields[0]).toMatchObject({ code: 'validation.originsTooMany' });
    const extra = await dm.client.put(`/chats/${chatId}/widget`, {
      enabled: true,
      origins: [SHOP],
      color: 'red',
    });
    expect(extra.status).toBe(422);
  });

  it('needs a public chat with a share link', async () => {
    const dm = await companyWithFile(t, MANUAL);
    const privateChat = await publicChat(dm, { visibility: 'private', shared: false });
    const refused = await dm.client.put(`/chats/${privateChat.chatId}/widget`, {
      enabled: true,
      origins: [SHOP],
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CHAT_NOT_PUBLIC');
    const unshared = await publicChat(dm, { shared: false });
    const noLink = await dm.client.put(`/chats/${unshared.chatId}/widget`, {
      enabled: true,
      origins: [SHOP],
    });
    expect(noLink.status).toBe(409);
    expect(noLink.body.error).toMatchObject({
      code: 'CHAT_NOT_SHARED',
      message: expect.stringMatching(/share link/),
    });
  });

  it('is for whoever may publish the chat: 401 without a session, 403 for an employee, 404 in another company', async () => {
    const { dm, chatId } = await publicChat();
    const body = { enabled: true, origins: [SHOP] };
    const anonymous = t.client();
    expect((await anonymous.get(`/chats/${chatId}/widget`)).status).toBe(401);
    expect((await anonymous.put(`/chats/${chatId}/widget`, body)).status).toBe(401);
    const employee = await signedInAs(t, 'Employee', { companyId: dm.me.userData.companyId });
    expect((await employee.client.get(`/chats/${chatId}/widget`)).status).toBe(403);
    expect((await employee.client.put(`/chats/${chatId}/widget`, body)).status).toBe(403);
    const other = await companyWithFile(t, MANUAL);
    const foreignGet = await other.client.get(`/chats/${chatId}/widget`);
    expect(foreignGet.status).toBe(404);
    expect(JSON.stringify(foreignGet.body)).not.toContain('shop');
    expect((await other.client.put(`/chats/${chatId}/widget`, body)).status).toBe(404);
    expect((await dm.client.get(`/chats/${chatId}/widget`)).body.enabled).toBe(false);
  });
});

describe('the widget for visitors', () => {
  it('shows nothing until the widget is on, and frames only on its websites', async () => {
    const { dm, chatId, token } = await publicChat();
    expect((await frame().get(`/public/widgets/${token}`)).status).toBe(404);
    expect(await widgetFrameAncestors(t.server.ctx, token)).toEqual([]);
    await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: [SHOP] });
    const view = await frame().get(`/public/widgets/${token}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      name: 'Kundenfragen',
      canAsk: true,
      botCheck: 'altcha',
      visitor: null,
    });
    expect(await widgetFrameAncestors(t.server.ctx, token)).toEqual([SHOP]);
    expect(await widgetFrameAncestors(t.server.ctx, 'not-a-token-of-any-chat-at-all')).toEqual([]);

    // A revoked link, a chat made private, a widget switched off: nobody may frame it, and it shows nothing.
    await dm.client.delete(`/chats/${chatId}/share`);
    expect(await widgetFrameAncestors(t.server.ctx, token)).toEqual([]);
    expect((await frame().get(`/public/widgets/${token}`)).status).toBe(404);
    const again = (await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
    expect(await widgetFrameAncestors(t.server.ctx, again)).toEqual([SHOP]);
    await dm.client.put(`/chats/${chatId}/widget`, { enabled: false, origins: [SHOP] });
    expect(await widgetFrameAncestors(t.server.ctx, again)).toEqual([]);
    expect((await frame().get(`/public/widgets/${again}`)).status).toBe(404);
  });

  it('lets a visitor join after the bot check, keep their thread by token, and get a cited answer', async () => {
    const { dm, chatId, token } = await publicChat();
    await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: [SHOP] });
    const client = frame();
    const refused = await client.post(`/public/widgets/${token}/visitor`, { botCheck: 'forged' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('BOT_CHECK_FAILED');

    const joined = await joinWidget(client, token);
    expect(joined.visitorToken).toMatch(/^[\w-]{20,}$/);
    expect((await client.get(`/public/widgets/${token}`)).body.visitor).toEqual({
      name: null,
      phone: null,
      email: null,
    });
    // Leaving a name later needs no second bot check.
    const named = await client.post(`/public/widgets/${token}/visitor`, { name: 'Lena' });
    expect(named.body).toMatchObject({ name: 'Lena', visitorToken: joined.visitorToken });

    const answer = await stream(client, `/public/chats/${token}/messages`, QUESTION);
    expect(answer.status).toBe(200);
    expect(answer.text()).toContain('Vierkantschlüssel');
    expect(answer.text()).toContain('[1]');
    expect(answer.done().citations[0]).toMatchObject({ n: 1, fileName: 'Heizung.docx' });
    const thread = await client.get(`/public/chats/${token}/messages`);
    expect(thread.body.items.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    // Another browser without the token is no visitor.
    expect((await frame().get(`/public/chats/${token}/messages`)).body.error.code).toBe('VISITOR_REQUIRED');
  });

  it('keeps the limits of public chats: parallel questions of one widget visitor stop at the limit', async () => {
    const { dm, chatId, token } = await publicChat();
    await dm.client.put(`/chats/${chatId}/widget`, { enabled: true, origins: [SHOP] });
    const client = frame();
    await joinWidget(client, token);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => stream(client, `/public/chats/${token}/messages`, QUESTION)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(PER_ASKER);
    expect(results.filter((r) => r.status === 429)).toHaveLength(5 - PER_ASKER);
  });
});
