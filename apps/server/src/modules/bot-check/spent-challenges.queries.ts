import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { spentBotChallenges } from '../../db/schema/index.ts';

/** Remembers a solved challenge's signature for `minutes`; false when it was spent already. */
export async function spendChallenge(db: DbOrTx, signature: string, minutes: number): Promise<boolean> {
  const spent = await db
    .insert(spentBotChallenges)
    .values({ signature, expiresAt: sql`now() + make_interval(mins => ${minutes})` })
    .onConflictDoNothing({ target: spentBotChallenges.signature })
    .returning({ signature: spentBotChallenges.signature });
  return spent.length === 1;
}
