import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { secondFactorChallenges } from '../../db/schema/index.ts';

/** A pending sign-in waiting for its second factor, as stored. */
export type ChallengeRow = typeof secondFactorChallenges.$inferSelect;

/** A challenge still open: not used, not expired, and with attempts left (`failures` counts codes tried on it). */
const stillOpen = (maxAttempts: number) => [
  isNull(secondFactorChallenges.usedAt),
  gt(secondFactorChallenges.expiresAt, new Date()),
  lt(secondFactorChallenges.failures, maxAttempts),
];

export async function insertChallenge(
  db: DbOrTx,
  challenge: { userId: string; area: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(secondFactorChallenges).values(challenge);
}

/** The open challenge of this token hash (fewer than `maxAttempts` codes tried on it), if any. */
export async function openChallengeByHash(
  db: DbOrTx,
  tokenHash: string,
  maxAttempts: number,
): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(secondFactorChallenges)
    .where(and(eq(secondFactorChallenges.tokenHash, tokenHash), ...stillOpen(maxAttempts)));
  return row;
}

/** Counts one code tried on the challenge if it is still open (one statement); whether it was. */
export async function claimChallengeAttempt(
  db: DbOrTx,
  challengeId: string,
  maxAttempts: number,
): Promise<boolean> {
  const [claimed] = await db
    .update(secondFactorChallenges)
    .set({ failures: sql`${secondFactorChallenges.failures} + 1` })
    .where(and(eq(secondFactorChallenges.id, challengeId), ...stillOpen(maxAttempts)))
    .returning({ id: secondFactorChallenges.id });
  return claimed !== undefined;
}

/** Marks the challenge used unless it was already; whether this call did. */
export async function spendChallenge(db: DbOrTx, challengeId: string): Promise<boolean> {
  const [spent] = await db
    .update(secondFactorChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(secondFactorChallenges.id, challengeId), isNull(secondFactorChallenges.usedAt)))
    .returning({ id: secondFactorChallenges.id });
  return spent !== undefined;
}
