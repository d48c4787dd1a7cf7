import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.ts';
import { type USER_TOKEN_PURPOSES, userTokens } from '../db/schema/index.ts';
import { AppError } from './app-error.ts';
import { randomToken, sha256 } from './token-crypto.ts';

type Purpose = (typeof USER_TOKEN_PURPOSES)[number];

export const TOKEN_LIFETIME_SECONDS: Record<Purpose, number> = {
  verify_email: 7 * 24 * 3600,
  reset_password: 3600,
  set_password: 7 * 24 * 3600,
  change_email: 24 * 3600,
};

/**
 * Issues a single-use mail token; earlier unused tokens of the same purpose stop working. A `change_email` token
 * carries the address it confirms.
 */
export async function issueUserToken(
  tx: DbOrTx,
  userId: string,
  purpose: Purpose,
  newEmail: string | null = null,
): Promise<string> {
  const token = randomToken();
  await tx
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
  await tx.insert(userTokens).values({
    userId,
    purpose,
    tokenHash: sha256(token),
    newEmail,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_SECONDS[purpose] * 1000),
  });
  return token;
}

/** Marks a valid token used and returns its user; an unknown, used or expired token is TOKEN_INVALID. */
export async function consumeUserToken(tx: DbOrTx, token: string, purpose: Purpose): Promise<string> {
  return (await consumeUserTokenRow(tx, token, purpose)).userId;
}

/** As `consumeUserToken`, with what the token carries (the new address of an e-mail change). */
export async function consumeUserTokenRow(
  tx: DbOrTx,
  token: string,
  purpose: Purpose,
): Promise<{ userId: string; newEmail: string | null }> {
  const [row] = await tx
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.tokenHash, sha256(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: userTokens.userId, newEmail: userTokens.newEmail });
  if (!row) throw new AppError('TOKEN_INVALID');
  return row;
}
