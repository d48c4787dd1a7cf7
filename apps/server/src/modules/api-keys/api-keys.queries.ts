import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { apiKeys } from '../../db/schema/index.ts';

/** Adds one to a key's question count (in one statement: parallel questions each count). */
export async function incrementQuestionCount(db: DbOrTx, apiKeyId: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ questionCount: sql`${apiKeys.questionCount} + 1` })
    .where(eq(apiKeys.id, apiKeyId));
}
