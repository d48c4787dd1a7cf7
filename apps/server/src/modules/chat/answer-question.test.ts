import type { ChatStreamEvent } from '@werkwissen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { type AskRequest, answerQuestion } from './answer-stream.ts';
import { chatScope, loadChat, threadOf } from './chats.service.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';

/** A question in a data manager's new chat over the divisions, set up as a job would: no request, no reply. */
async function question(client: ApiClient, divisionIds: string[], text: string): Promise<AskRequest> {
  const ctx = t.server.ctx;
  const chatId = (await client.post('/chats', { name: 'Ohne HTTP', divisionIds })).body.id as string;
  const userId = (await client.get('/auth/me')).body.userData.id as string;
  const actor = (await loadUserActor(ctx.db, userId, null)) as Actor;
  const chat = await loadChat(ctx, actor, chatId);
  return {
    chat,
    threadId: await threadOf(ctx, chat, userId),
    scope: chatScope(chat, actor),
    language: 'de',
    ask: { question: text },
  };
}

describe('answering without HTTP', () => {
  it('emits start, the answer in pieces, its citations and done, and resolves with the stored answer', async () => {
    const dm = await companyWithFile(t, MANUAL, 'Heizung', { language: 'de' });
    const req = await question(dm.client, [dm.divisionId], 'Womit wird der Heizkörper entlüftet?');
    const events: ChatStreamEvent[] = [];
    const stored = await answerQuestion(t.server.ctx, req, { emit: (e) => events.push(e) });

    expect(events[0]).toMatchObject({ event: 'start', data: { messageId: stored.id } });
    expect(events.at(-1)).toEqual({ event: 'done', data: stored });
    const tokens = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : []));
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe(stored.content);
    expect(stored).toMatchObject({ status: 'complete', noAnswer: false });
    expect(stored.content).toContain('Vierkantschlüssel');
    const cited = events.flatMap((e) => (e.event === 'citation' ? [e.data.fileName] : []));
    expect(cited).toEqual(['Heizung.docx']);
    // The same answer is what the chat's history shows.
    const history = (await dm.client.get(`/chats/${req.chat.id}/messages`)).body.items;
    expect(history.at(-1)).toMatchObject({ id: stored.id, content: stored.content });
  });

  it('keeps an answer its asker stopped as stopped', async () => {
    const dm = await companyWithFile(t, MANUAL, 'Heizung', { language: 'de' });
    const req = await question(dm.client, [dm.divisionId], 'Wie hoch muss der Wasserdruck sein?');
    const stored = await answerQuestion(t.server.ctx, req, { emit: () => {}, signal: AbortSignal.abort() });
    expect(stored.status).toBe('stopped');
  });

  it('refuses before the first event when nothing is ready to answer from', async () => {
    const dm = await signedInDataManager(t);
    const divisionId = (await dm.client.post('/divisions', { name: 'Leer' })).body.id as string;
    const req = await question(dm.client, [divisionId], 'Gibt es hier etwas?');
    const events: ChatStreamEvent[] = [];
    await expect(answerQuestion(t.server.ctx, req, { emit: (e) => events.push(e) })).rejects.toMatchObject({
      code: 'CHAT_NO_READY_FILE',
    });
    expect(events).toEqual([]);
  });
});
