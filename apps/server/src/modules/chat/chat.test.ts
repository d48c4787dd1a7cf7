import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import { makeDocx, waitForFile } from '../../../test/support/documents.ts';
import { companyWithFile, employeeOf } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { companyLogos } from '../../db/schema/index.ts';

let t: TestServer;

/** An employee's chat made public with a link, as the old default role (`manage Chat`) allowed. */
async function publishedByOldRole(chatId: string): Promise<string> {
  const token = `alt-${crypto.randomUUID()}`;
  await t.server.ctx.db.execute(
    sql`update chats set visibility = 'public', share_token = ${token} where id = ${chatId}`,
  );
  return token;
}

// Public questions are limited per address; every visitor of these tests comes from 127.0.0.1.
const PUBLIC_LIMIT = 6;
beforeAll(async () => {
  t = await startTestServer({ env: { PUBLIC_CHAT_QUESTIONS_PER_HOUR: String(PUBLIC_LIMIT) } });
});
afterAll(() => t?.close());

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden. ' +
  'Die Wartung des Brenners erfolgt jährlich im Herbst.';

describe('chats with the built-in answerer', () => {
  it('refuses questions until a file is ready, then streams a cited answer and keeps the history', async () => {
    const dm = await signedInDataManager(t, { language: 'de' });
    const divisionId = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
    const created = await dm.client.post('/chats', { name: 'Heizungsfragen', divisionIds: [divisionId] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Heizungsfragen',
      visibility: 'private',
      provider: 'builtin',
    });
    expect(created.body.canAsk).toBe(false);
    const chatId = created.body.id as string;

    const early = await stream(dm.client, `/chats/${chatId}/messages`, { content: 'Wie entlüfte ich?' });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({
      code: 'CHAT_NO_READY_FILE',
      message: 'Bitte laden Sie zuerst eine Datei hoch, um den Chat zu starten.',
    });

    const up = await dm.client.upload(`/divisions/${divisionId}/files`, [
      { name: 'Wartung.docx', content: await makeDocx([{ heading: 'Wartung' }, { text: MANUAL }]) },
    ]);
    const file = await waitForFile(dm.client, up.body.results[0].file.id);
    expect((await dm.client.get(`/chats/${chatId}`)).body.canAsk).toBe(true);

    const res = await stream(dm.client, `/chats/${chatId}/messages`, {
      content: 'Womit wird der Heizkörper entlüftet?',
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    expect(res.events[0]!.event).toBe('start');
    expect(res.events.filter((e) => e.event === 'token').length).toBeGreaterThan(1);
    expect(res.text()).toContain('Der Heizkörper wird mit einem Vierkantschlüssel entlüftet.');
    expect(res.text()).toContain('[1]');
    const citation = res.events.find((e) => e.event === 'citation')!.data;
    expect(citation).toMatchObject({ n: 1, fileId: file.id, fileName: 'Wartung.docx' });
    expect(citation.text).toContain('Vierkantschlüssel');
    const done = res.done();
    expect(done).toMatchObject({
      role: 'assistant',
      status: 'complete',
      noAnswer: false,
      provider: 'builtin',
    });
    expect(done.id).toBe(res.events[0]!.data.messageId);
    expect(res.events.at(-1)!.event).toBe('done');

    // The original opens from the citation.
    expect((await dm.client.get(`/files/${citation.fileId}/content`)).status).toBe(200);

    const history = await dm.client.get(`/chats/${chatId}/messages`);
    expect(history.body.items.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(history.body.items[0].content).toBe('Womit wird der Heizkörper entlüftet?');
    expect(history.body.items[1].citations[0].fileName).toBe('Wartung.docx');

    // A short follow-up is read with the previous question.
    const followUp = await stream(dm.client, `/chats/${chatId}/messages`, {
      content: 'Und der Wasserdruck?',
    });
    expect(followUp.text()).toContain('1,5 bar');

    const list = await dm.client.get('/chats');
    expect(list.body.items[0]).toMatchObject({ id: chatId, messageCount: 4, isOwner: true });
  });

  it('says plainly when nothing relevant is found, in the language of the question', async () => {
    const a = await companyWithFile(t, MANUAL);
    const chatId = (await a.client.post('/chats', { name: 'Fragen', divisionIds: [a.divisionId] })).body.id;
    const res = await stream(a.client, `/chats/${chatId}/messages`, {
      content: 'What is the warranty period of the solar panels on the roof?',
    });
    expect(res.done()).toMatchObject({ noAnswer: true, citations: [] });
    expect(res.text()).toMatch(/found nothing/);
    expect(res.events.some((e) => e.event === 'citation')).toBe(false);
  });

  it('refuses a question its documents do not answer instead of quoting an unrelated passage', async () => {
    const a = await companyWithFile(
      t,
      'Kundenliste: Auto Schmidt GmbH in Bremen, Müller Bau in Hamburg, Becker Haustechnik in Kiel.',
      'Kunden',
      { language: 'de' },
    );
    const chatId = (await a.client.post('/chats', { name: 'Fragen', divisionIds: [a.divisionId] })).body.id;
    const res = await stream(a.client, `/chats/${chatId}/messages`, {
      content: 'Was kostet die Reparatur am Auto?',
    });
    expect(res.done()).toMatchObject({ noAnswer: true, citations: [] });
    expect(res.text()).toMatch(/habe ich nichts gefunden/);
  });

  it('frames the answer in the language of a short question, not the interface language', async () => {
    const a = await companyWithFile(t, 'Preise: Die Anfahrt kostet 35 € pauschal.', 'Preise', {
      language: 'de',
    });
    const chatId = (await a.client.post('/chats', { name: 'Preise', divisionIds: [a.divisionId] })).body.id;
    const res = await stream(a.client, `/chats/${chatId}/messages`, { content: 'How much is the Anfahrt?' });
    expect(res.done().noAnswer).toBe(false);
    expect(res.text().startsWith('Here is what your documents say:')).toBe(true);
    expect(res.text()).toContain('35 €');
  });

  it('regenerates an answer in place', async () => {
    const a = await companyWithFile(t, MANUAL);
    const chatId = (await a.client.post('/chats', { name: 'Fragen', divisionIds: [a.divisionId] })).body.id;
    const first = await stream(a.client, `/chats/${chatId}/messages`, {
      content: 'Wann erfolgt die Wartung des Brenners?',
    });
    const again = await stream(a.client, `/chats/${chatId}/messages/${first.done().id}/regenerate`);
    expect(again.status).toBe(200);
    expect(again.text()).toContain('jährlich im Herbst');
    const items = (await a.client.get(`/chats/${chatId}/messages`)).body.items;
    expect(items.map((m: { id: string }) => m.id)).toEqual([
      first.events[0]!.data.questionId,
      again.done().id,
    ]);
  });

  it('renames, shares, revokes and deletes as the data manager who owns it', async () => {
    const a = await companyWithFile(t, MANUAL);
    const chatId = (await a.client.post('/chats', { name: 'Alt', divisionIds: [a.divisionId] })).body.id;
    expect((await a.client.patch(`/chats/${chatId}`, { name: 'Neu' })).body.name).toBe('Neu');
    expect((await a.client.post(`/chats/${chatId}/share`)).body.error.code).toBe('CHAT_NOT_PUBLIC');
    await a.client.patch(`/chats/${chatId}`, { visibility: 'public' });
    const shared = await a.client.post(`/chats/${chatId}/share`);
    expect(shared.body.shareToken).toMatch(/^[\w-]{20,64}$/);
    const opened = await t.client().get(`/public/chats/${shared.body.shareToken}`);
    expect(opened.status).toBe(200);
    // The company's customers see the company's logo, not the product's (none yet here).
    expect(opened.body.companyLogoUrl).toBeNull();
    await t.server.ctx.db.insert(companyLogos).values({
      companyId: a.me.userData.companyId,
      storageKey: 'logo-key',
      sha256: 'ab'.repeat(32),
      width: 100,
      height: 50,
    });
    expect((await t.client().get(`/public/chats/${shared.body.shareToken}`)).body.companyLogoUrl).toBe(
      `/api/v1/branding/companies/${a.me.userData.companyId}/logo?v=${'ab'.repeat(6)}`,
    );
    const revoked = await a.client.delete(`/chats/${chatId}/share`);
    expect(revoked.body.shareToken).toBeNull();
    expect((await t.client().get(`/public/chats/${shared.body.shareToken}`)).status).toBe(404);
    expect((await a.client.delete(`/chats/${chatId}`)).status).toBe(204);
    expect((await a.client.get(`/chats/${chatId}`)).status).toBe(404);
  });
});

describe('who may see a chat', () => {
  it('answers 401 without a session on every chat route', async () => {
    const anon = t.client();
    const id = crypto.randomUUID();
    for (const res of [
      await anon.get('/chats'),
      await anon.get('/chat-options'),
      await anon.post('/chats', { name: 'x', divisionIds: [id] }),
      await anon.get(`/chats/${id}`),
      await anon.patch(`/chats/${id}`, { name: 'x' }),
      await anon.delete(`/chats/${id}`),
      await anon.get(`/chats/${id}/messages`),
      await anon.post(`/chats/${id}/messages`, { content: 'x' }),
      await anon.post(`/chats/${id}/share`),
    ]) {
      expect(res.status).toBe(401);
    }
  });

  it("keeps a private chat invisible to everyone but its owner, and another company's chats out of reach", async () => {
    const a = await companyWithFile(t, MANUAL);
    const elektro = (await a.client.post('/divisions', { name: 'Elektro' })).body.id as string;
    const privateChat = (await a.client.post('/chats', { name: 'Geheim', divisionIds: [a.divisionId] })).body
      .id as string;
    const employee = await employeeOf(t, a, [a.divisionId]);
    const b = await companyWithFile(t, 'Unsere Firma verkauft Wärmepumpen.');

    for (const other of [employee, b.client]) {
      for (const res of [
        await other.get(`/chats/${privateChat}`),
        await other.get(`/chats/${privateChat}/messages`),
        await other.patch(`/chats/${privateChat}`, { name: 'x' }),
        await other.delete(`/chats/${privateChat}`),
        await other.post(`/chats/${privateChat}/share`),
        await other.delete(`/chats/${privateChat}/share`),
        await stream(other, `/chats/${privateChat}/messages/${crypto.randomUUID()}/regenerate`),
        await other.request('POST', `/chats/${privateChat}/transcriptions`, undefined, {
          form: new FormData(),
        }),
        await stream(other, `/chats/${privateChat}/messages`, { content: 'Wie entlüfte ich?' }),
      ]) {
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain('Geheim');
      }
      const list = await other.get('/chats');
      expect(list.body.items.map((c: { id: string }) => c.id)).not.toContain(privateChat);
    }
    // Divisions outside the caller's own are not found either.
    expect((await b.client.post('/chats', { name: 'x', divisionIds: [a.divisionId] })).status).toBe(404);
    expect((await employee.post('/chats', { name: 'x', divisionIds: [elektro] })).status).toBe(404);
  });

  it('lets an employee chat in their divisions and use a public chat in their own thread', async () => {
    const a = await companyWithFile(t, MANUAL);
    const publicChat = (
      await a.client.post('/chats', { name: 'Für alle', visibility: 'public', divisionIds: [a.divisionId] })
    ).body.id as string;
    await stream(a.client, `/chats/${publicChat}/messages`, { content: 'Wann wird der Brenner gewartet?' });
    const employee = await employeeOf(t, a, [a.divisionId]);

    const seen = await employee.get(`/chats/${publicChat}`);
    expect(seen.body).toMatchObject({ isOwner: false, shareToken: null, messageCount: 0 });
    expect((await employee.get(`/chats/${publicChat}/messages`)).body.items).toEqual([]);
    const asked = await stream(employee, `/chats/${publicChat}/messages`, {
      content: 'Womit entlüfte ich den Heizkörper?',
    });
    expect(asked.text()).toContain('Vierkantschlüssel');
    // Only the owner changes the chat: the employee sees it, so this is 403, not 404.
    expect((await employee.patch(`/chats/${publicChat}`, { name: 'x' })).status).toBe(403);
    // The owner's thread does not show the employee's question.
    const ownerThread = (await a.client.get(`/chats/${publicChat}/messages`)).body.items;
    expect(ownerThread.map((m: { content: string }) => m.content)).not.toContain(
      'Womit entlüfte ich den Heizkörper?',
    );

    const own = await employee.post('/chats', { name: 'Meins', divisionIds: [a.divisionId] });
    expect(own.status).toBe(201);
    expect((await a.client.get(`/chats/${own.body.id}`)).status).toBe(404);
  });
});

describe('who may publish a chat and take it back', () => {
  it('refuses publishing to an employee: a public chat, making one public, a share link (403)', async () => {
    const a = await companyWithFile(t, MANUAL);
    const employee = await employeeOf(t, a, [a.divisionId]);
    const body = { name: 'Für Kunden', divisionIds: [a.divisionId] };
    const created = await employee.post('/chats', { ...body, visibility: 'public' });
    expect(created.status).toBe(403);
    expect(created.body.error.code).toBe('FORBIDDEN');
    expect((await employee.get('/chats')).body.items).toEqual([]);

    const own = await employee.post('/chats', body);
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ isOwner: true, canManage: true, visibility: 'private' });
    const chatId = own.body.id as string;
    const made = await employee.patch(`/chats/${chatId}`, { visibility: 'public' });
    expect(made.status).toBe(403);
    expect(made.body.error.code).toBe('FORBIDDEN');
    expect((await employee.get(`/chats/${chatId}`)).body.visibility).toBe('private');

    // A chat left public by the old role: still no new link, and no new divisions behind the old one.
    const token = await publishedByOldRole(chatId);
    const shared = await employee.post(`/chats/${chatId}/share`);
    expect(shared.status).toBe(403);
    expect(shared.body.error.code).toBe('FORBIDDEN');
    expect((await employee.patch(`/chats/${chatId}`, { divisionIds: [a.divisionId] })).status).toBe(403);
    expect((await employee.patch(`/chats/${chatId}`, { name: 'Umbenannt' })).status).toBe(200);
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(200);
    // Its owner may still take it back.
    expect((await employee.delete(`/chats/${chatId}/share`)).body.shareToken).toBeNull();
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(404);
  });

  it("lets the data manager unshare, make private and delete an employee's public chat", async () => {
    const a = await companyWithFile(t, MANUAL);
    const employee = await employeeOf(t, a, [a.divisionId]);
    const chatId = (await employee.post('/chats', { name: 'Verteilt', divisionIds: [a.divisionId] })).body
      .id as string;
    let token = await publishedByOldRole(chatId);

    const listed = (await a.client.get('/chats')).body.items.find((c: { id: string }) => c.id === chatId);
    expect(listed).toMatchObject({
      isOwner: false,
      canManage: true,
      visibility: 'public',
      shareToken: token,
    });

    const unshared = await a.client.delete(`/chats/${chatId}/share`);
    expect(unshared.status).toBe(200);
    expect(unshared.body.shareToken).toBeNull();
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(404);

    token = await publishedByOldRole(chatId);
    const madePrivate = await a.client.patch(`/chats/${chatId}`, { visibility: 'private' });
    expect(madePrivate.status).toBe(200);
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(404);
    // Private again, it is the employee's own business: out of the data manager's sight.
    expect((await a.client.get(`/chats/${chatId}`)).status).toBe(404);

    token = await publishedByOldRole(chatId);
    expect((await a.client.delete(`/chats/${chatId}`)).status).toBe(204);
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(404);
    expect((await employee.get(`/chats/${chatId}`)).status).toBe(404);

    // Another company's data manager reaches none of it.
    const b = await signedInDataManager(t);
    const other = (await employee.post('/chats', { name: 'Zweiter', divisionIds: [a.divisionId] })).body
      .id as string;
    token = await publishedByOldRole(other);
    expect((await b.client.delete(`/chats/${other}/share`)).status).toBe(404);
    expect((await b.client.delete(`/chats/${other}`)).status).toBe(404);
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(200);
  });
});

describe('public chat links', () => {
  async function sharedChat() {
    const a = await companyWithFile(t, MANUAL);
    const chatId = (
      await a.client.post('/chats', {
        name: 'Kundenfragen',
        visibility: 'public',
        divisionIds: [a.divisionId],
      })
    ).body.id as string;
    const token = (await a.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
    return { ...a, chatId, token };
  }

  it('gives each visitor their own thread after the bot check, and never the owner’s history', async () => {
    const s = await sharedChat();
    await stream(s.client, `/chats/${s.chatId}/messages`, { content: 'Wann wird der Brenner gewartet?' });

    const visitor = t.client();
    const view = await visitor.get(`/public/chats/${s.token}`);
    expect(view.body).toMatchObject({
      name: 'Kundenfragen',
      canAsk: true,
      botCheck: 'altcha',
      visitor: null,
    });
    expect((await stream(visitor, `/public/chats/${s.token}/messages`, { content: 'Hallo?' })).status).toBe(
      401,
    );
    expect((await visitor.post(`/public/chats/${s.token}/visitor`, { botCheck: 'forged' })).status).toBe(403);

    const payload = await solvedAltcha(visitor);
    const joined = await visitor.post(`/public/chats/${s.token}/visitor`, {
      botCheck: payload,
      name: 'Erika Muster',
      email: 'erika@kunde.example',
    });
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({ name: 'Erika Muster', phone: null, email: 'erika@kunde.example' });
    // A solved challenge counts once.
    expect((await t.client().post(`/public/chats/${s.token}/visitor`, { botCheck: payload })).status).toBe(
      403,
    );

    expect((await visitor.get(`/public/chats/${s.token}/messages`)).body.items).toEqual([]);
    const asked = await stream(visitor, `/public/chats/${s.token}/messages`, {
      content: 'Womit wird der Heizkörper entlüftet?',
    });
    expect(asked.text()).toContain('Vierkantschlüssel');
    // A visitor reads "the documents", not "your documents".
    expect(asked.text().startsWith('Das steht dazu in den Dokumenten:')).toBe(true);
    const thread = (await visitor.get(`/public/chats/${s.token}/messages`)).body.items;
    expect(thread.map((m: { content: string }) => m.content)).toEqual([
      'Womit wird der Heizkörper entlüftet?',
      asked.done().content,
    ]);

    const answerId = asked.done().id as string;
    const liked = await visitor.request('PUT', `/public/chats/${s.token}/messages/${answerId}/feedback`, {
      liked: true,
      comment: 'Hat geholfen',
    });
    expect(liked.status).toBe(200);
    expect(liked.body).toMatchObject({ liked: true, comment: 'Hat geholfen' });
    expect((await visitor.get(`/public/chats/${s.token}/messages`)).body.items[1].feedback.liked).toBe(true);

    const second = t.client();
    await second.post(`/public/chats/${s.token}/visitor`, { botCheck: await solvedAltcha(second) });
    expect((await second.get(`/public/chats/${s.token}/messages`)).body.items).toEqual([]);
    // Another visitor cannot rate this visitor's answer.
    expect(
      (
        await second.request('PUT', `/public/chats/${s.token}/messages/${answerId}/feedback`, {
          liked: false,
        })
      ).status,
    ).toBe(404);
    const report = await s.client.get('/feedback?origin=public');
    expect(report.body.items[0]).toMatchObject({
      givenBy: 'Erika Muster',
      liked: true,
      question: 'Womit wird der Heizkörper entlüftet?',
    });

    const { rows } = await t.server.ctx.db.execute<{ name: string; email: string }>(
      sql`select name, email from chat_visitors where chat_id = ${s.chatId} and name is not null`,
    );
    expect(rows).toEqual([{ name: 'Erika Muster', email: 'erika@kunde.example' }]);
  });

  it('answers only from the chat’s own divisions, and stops working when revoked', async () => {
    const s = await sharedChat();
    const other = (await s.client.post('/divisions', { name: 'Intern' })).body.id as string;
    const up = await s.client.upload(`/divisions/${other}/files`, [
      {
        name: 'Intern.docx',
        content: await makeDocx([{ text: 'Der Tresorcode lautet 4711 und ist geheim.' }]),
      },
    ]);
    await waitForFile(s.client, up.body.results[0].file.id);
    const visitor = t.client();
    await visitor.post(`/public/chats/${s.token}/visitor`, { botCheck: await solvedAltcha(visitor) });
    const asked = await stream(visitor, `/public/chats/${s.token}/messages`, {
      content: 'Wie lautet der Tresorcode?',
    });
    expect(asked.text()).not.toContain('4711');
    expect(asked.done().noAnswer).toBe(true);

    await s.client.delete(`/chats/${s.chatId}/share`);
    expect((await visitor.get(`/public/chats/${s.token}`)).status).toBe(404);
    expect((await visitor.get(`/public/chats/${s.token}/messages`)).status).toBe(404);
    expect((await stream(visitor, `/public/chats/${s.token}/messages`, { content: 'Hallo?' })).status).toBe(
      404,
    );
  });
  it('answers visitors only from divisions its employee owner still holds, and nothing once they are disabled', async () => {
    const a = await companyWithFile(t, MANUAL);
    const intern = (await a.client.post('/divisions', { name: 'Intern' })).body.id as string;
    const up = await a.client.upload(`/divisions/${intern}/files`, [
      {
        name: 'Intern.docx',
        content: await makeDocx([{ text: 'Der Tresorcode lautet 4711 und ist geheim.' }]),
      },
    ]);
    await waitForFile(a.client, up.body.results[0].file.id);
    const employee = await employeeOf(t, a, [a.divisionId, intern]);
    const employeeId = (await employee.get('/auth/me')).body.userData.id as string;
    const chatId = (await employee.post('/chats', { name: 'Alles', divisionIds: [a.divisionId, intern] }))
      .body.id as string;
    const token = await publishedByOldRole(chatId);
    const visitor = t.client();
    await visitor.post(`/public/chats/${token}/visitor`, { botCheck: await solvedAltcha(visitor) });
    const before = await stream(visitor, `/public/chats/${token}/messages`, {
      content: 'Wie lautet der Tresorcode?',
    });
    expect(before.text()).toContain('4711');

    expect((await a.client.patch(`/employees/${employeeId}`, { divisionIds: [a.divisionId] })).status).toBe(
      200,
    );
    const after = await stream(visitor, `/public/chats/${token}/messages`, {
      content: 'Wie lautet der Tresorcode?',
    });
    expect(after.text()).not.toContain('4711');
    expect(after.done()).toMatchObject({ noAnswer: true, citations: [] });
    expect((await visitor.get(`/public/chats/${token}`)).body.canAsk).toBe(true);

    await a.client.patch(`/employees/${employeeId}`, { divisionIds: [] });
    expect((await visitor.get(`/public/chats/${token}`)).body.canAsk).toBe(false);
    await a.client.patch(`/employees/${employeeId}`, { divisionIds: [a.divisionId, intern] });
    expect((await visitor.get(`/public/chats/${token}`)).body.canAsk).toBe(true);
    await t.server.ctx.db.execute(sql`update users set disabled_at = now() where id = ${employeeId}`);
    expect((await visitor.get(`/public/chats/${token}`)).body.canAsk).toBe(false);
  });

  it('limits the questions one address asks per hour (429 with Retry-After)', async () => {
    const s = await sharedChat();
    const visitor = t.client();
    await visitor.post(`/public/chats/${s.token}/visitor`, { botCheck: await solvedAltcha(visitor) });
    const askedFromHere = async () => {
      const { rows } = await t.server.ctx.db.execute<{ n: string | number }>(sql`select count(*) as n
        from chat_messages m join chat_threads th on th.id = m.thread_id join chat_visitors v on v.id = th.visitor_id
        where v.ip = '127.0.0.1' and m.role = 'user'`);
      return Number(rows[0]!.n);
    };
    while ((await askedFromHere()) < PUBLIC_LIMIT) {
      const ok = await stream(visitor, `/public/chats/${s.token}/messages`, {
        content: 'Wann wird der Brenner gewartet?',
      });
      expect(ok.status).toBe(200);
    }
    const refused = await stream(visitor, `/public/chats/${s.token}/messages`, {
      content: 'Noch eine Frage?',
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.details.seconds).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.error.details.seconds);
    expect(await askedFromHere()).toBe(PUBLIC_LIMIT);
    // Signed-in users are not limited by it.
    expect(
      (await stream(s.client, `/chats/${s.chatId}/messages`, { content: 'Wann wird der Brenner gewartet?' }))
        .status,
    ).toBe(200);
  });
});
