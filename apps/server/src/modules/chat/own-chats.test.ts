import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { randomToken } from '../../core/token-crypto.ts';
import { chats, chatVisitors } from '../../db/schema/index.ts';
import { ownChatOfSource, visitorThread } from './chats.queries.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, role: 'api' });
});
afterAll(async () => t?.close());

const PARALLEL = 8;
/** The race is lost only now and then: several fresh users, each with its burst of first messages. */
const ROUNDS = 5;

/**
 * A user's WhatsApp or API chat and a visitor's thread are made by the first message: several first messages at once
 * (a WhatsApp sender's burst, parallel API calls) must all find the one row. On PostgreSQL an insert that lost the
 * race cannot see the winner's row in its own statement; it failed with "cannot read properties of undefined".
 */
describe('a user’s own chat and a visitor’s thread, first made by parallel messages', () => {
  it.each(['whatsapp', 'api'] as const)(
    'finds one %s chat from every parallel first message',
    async (source) => {
      const { user, companyId } = await createUser(t, 'DataManager');
      const ids = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          ownChatOfSource(t.server.ctx.db, { companyId: companyId!, userId: user.id }, source, 'builtin'),
        ),
      );
      expect(new Set(ids).size).toBe(1);
    },
  );

  it('finds one thread from a visitor’s parallel first messages', async () => {
    const { user, companyId } = await createUser(t, 'DataManager');
    const db = t.server.ctx.db;
    const [chat] = await db
      .insert(chats)
      .values({ companyId: companyId!, ownerId: user.id, name: 'Kundenfragen', visibility: 'public' })
      .returning();
    for (let round = 0; round < ROUNDS; round++) {
      const [visitor] = await db
        .insert(chatVisitors)
        .values({ companyId: companyId!, chatId: chat!.id, tokenHash: randomToken(16) })
        .returning();
      const ids = await Promise.all(
        Array.from({ length: PARALLEL }, () => visitorThread(db, chat!, visitor!.id)),
      );
      expect(new Set(ids).size).toBe(1);
    }
  });
});
