import { randomInt } from 'node:crypto';
import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import type { DbOrTx } from '../../db/database.ts';
import { userRecoveryCodes, userSecondFactors, users } from '../../db/schema/index.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import {
  claimChallengeAttempt,
  insertChallenge,
  openChallengeByHash,
  spendChallenge,
} from './second-factor-challenges.queries.ts';
import { beginCodeAttempt, endCodeAttempt, liftSecondFactorLock, wrongCode } from './second-factor-limits.ts';
import { enrolmentPicture, matchingStep, newTotpSecret } from './totp.ts';

export const CHALLENGE_SECONDS = 5 * 60;
/** Codes tried on one pending sign-in before it is dead. */
const CHALLENGE_MAX_ATTEMPTS = 5;
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export type SecondFactorStep = 'verify' | 'enrol';

/** The operators (whoever may open the back office) must have a second factor; for everyone else it is optional. */
export function secondFactorRequired(actor: Actor): boolean {
  return actor.ability.can('read', 'admin');
}

function box(ctx: AppContext) {
  return new SecretBox(ctx.config.secrets.encryptionKey);
}

async function factorOf(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(userSecondFactors).where(eq(userSecondFactors.userId, userId));
  return row ?? null;
}

/** What a right password leads to: the code of an enrolled factor, an enrolment the user's rules require, or nothing. */
export async function secondFactorStep(ctx: AppContext, actor: Actor): Promise<SecondFactorStep | null> {
  const factor = await factorOf(ctx.db, actor.userId);
  if (factor?.confirmedAt) return 'verify';
  return secondFactorRequired(actor) ? 'enrol' : null;
}

/** Opens the pending state of a sign-in: a single-use token for the `ww_2fa` cookie; no session yet. */
export async function openChallenge(ctx: AppContext, userId: string, area: string): Promise<string> {
  const token = randomToken();
  await insertChallenge(ctx.db, {
    userId,
    area,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
  });
  return token;
}

/** The pending sign-in of a cookie, or TWO_FACTOR_CHALLENGE_EXPIRED (unknown, used, expired or too many wrong codes). */
export async function pendingChallenge(ctx: AppContext, token: string | undefined) {
  const row = token ? await openChallengeByHash(ctx.db, sha256(token), CHALLENGE_MAX_ATTEMPTS) : undefined;
  if (!row) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED');
  return row;
}

/**
 * Starts (or starts again) an enrolment: a new secret, sealed at rest, in force once its first code is confirmed.
 * Refused while a confirmed factor exists: that one must be switched off or reset first.
 */
export async function startEnrolment(ctx: AppContext, userId: string) {
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED');
  if ((await factorOf(ctx.db, userId))?.confirmedAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  const secret = newTotpSecret();
  const secretSealed = box(ctx).seal(secret);
  await ctx.db
    .insert(userSecondFactors)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: userSecondFactors.userId,
      set: { secretSealed, lastUsedStep: null, createdAt: new Date() },
    });
  const issuer = (await ctx.settings.current()).general.appTitle;
  return { secret, ...(await enrolmentPicture(secret, user.email, issuer)) };
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

const recoveryHash = (code: string) => sha256(code.toLowerCase().replace(/[^a-z0-9]/g, ''));

/** Replaces the user's recovery codes with ten new ones; only their hashes are kept. */
async function issueRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await tx.insert(userRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: recoveryHash(code) })));
  return codes;
}

/**
 * Accepts a code of the user's authenticator once: its time step must be later than the last accepted one (claimed
 * in one statement, so two requests with the same code cannot both pass).
 */
async function acceptCode(ctx: AppContext, tx: DbOrTx, userId: string, code: string): Promise<boolean> {
  const factor = await factorOf(tx, userId);
  if (!factor) return false;
  const step = matchingStep(box(ctx).open(factor.secretSealed), code, Date.now());
  if (step === null) return false;
  const claimed = await tx
    .update(userSecondFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(userSecondFactors.userId, userId),
        or(isNull(userSecondFactors.lastUsedStep), lt(userSecondFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: userSecondFactors.userId });
  return claimed.length === 1;
}

/** Spends one unused recovery code of the user. */
async function acceptRecoveryCode(tx: DbOrTx, userId: string, code: string): Promise<boolean> {
  const spent = await tx
    .update(userRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, recoveryHash(code)),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return spent.length === 1;
}

export type SecondFactorProof = { code: string } | { recoveryCode: string };

/**
 * Checks the second factor of a pending sign-in. An enrolment's first code confirms the factor and answers its
 * recovery codes (shown once). Before the code is looked at, one attempt of the account (`beginCodeAttempt`: slowed,
 * then locked, over all its sign-ins) and one of the challenge's five are claimed, each atomically, so parallel
 * codes never get more; the right code gives the account's attempt back and spends the challenge.
 */
export async function passChallenge(
  ctx: AppContext,
  token: string | undefined,
  proof: SecondFactorProof,
): Promise<{ userId: string; area: string; recoveryCodes: string[] | null }> {
  const challenge = await pendingChallenge(ctx, token);
  const factor = await factorOf(ctx.db, challenge.userId);
  if (!factor) throw new AppError('TWO_FACTOR_NOT_ENROLLED');
  const attempt = await beginCodeAttempt(ctx, challenge.userId);
  if (!(await claimChallengeAttempt(ctx.db, challenge.id, CHALLENGE_MAX_ATTEMPTS))) {
    await endCodeAttempt(ctx, attempt);
    throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED');
  }
  const enrolling = !factor.confirmedAt;
  const outcome = await ctx.db.transaction(async (tx) => {
    const passed =
      'code' in proof
        ? await acceptCode(ctx, tx, challenge.userId, proof.code)
        : !enrolling && (await acceptRecoveryCode(tx, challenge.userId, proof.recoveryCode));
    if (!passed) return null;
    if (!(await spendChallenge(tx, challenge.id))) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED');
    if (!enrolling) return { recoveryCodes: null };
    await tx
      .update(userSecondFactors)
      .set({ confirmedAt: new Date() })
      .where(eq(userSecondFactors.userId, challenge.userId));
    return { recoveryCodes: await issueRecoveryCodes(tx, challenge.userId) };
  });
  if (!outcome) {
    await wrongCode(ctx, attempt);
    throw new AppError('TWO_FACTOR_CODE_INVALID');
  }
  await endCodeAttempt(ctx, attempt);
  return { userId: challenge.userId, area: challenge.area, ...outcome };
}

/** The signed-in user's second factor: on or off, whether their rules require it, unused recovery codes. */
export async function secondFactorStatus(ctx: AppContext, actor: Actor) {
  const factor = await factorOf(ctx.db, actor.userId);
  const [left] = await ctx.db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, actor.userId), isNull(userRecoveryCodes.usedAt)));
  return {
    enabled: Boolean(factor?.confirmedAt),
    required: secondFactorRequired(actor),
    recoveryCodesLeft: factor?.confirmedAt ? (left?.n ?? 0) : 0,
  };
}

/** Account settings: starts an enrolment of the signed-in user (not while impersonated). */
export async function startAccountEnrolment(ctx: AppContext, actor: Actor) {
  refuseWhileImpersonating(actor);
  return startEnrolment(ctx, actor.userId);
}

/** Account settings: the first code confirms the enrolment; answers the recovery codes (shown once). */
export async function confirmAccountEnrolment(ctx: AppContext, actor: Actor, code: string) {
  refuseWhileImpersonating(actor);
  const factor = await factorOf(ctx.db, actor.userId);
  if (!factor) throw new AppError('TWO_FACTOR_NOT_ENROLLED');
  if (factor.confirmedAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  return ctx.db.transaction(async (tx) => {
    if (!(await acceptCode(ctx, tx, actor.userId, code))) throw new AppError('TWO_FACTOR_CODE_INVALID');
    await tx
      .update(userSecondFactors)
      .set({ confirmedAt: new Date() })
      .where(eq(userSecondFactors.userId, actor.userId));
    return { recoveryCodes: await issueRecoveryCodes(tx, actor.userId) };
  });
}

async function removeFactor(tx: DbOrTx, userId: string) {
  await tx.delete(userSecondFactors).where(eq(userSecondFactors.userId, userId));
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
}

/** Account settings: switches the second factor off with a current code; not for whom it is required. */
export async function disableOwnSecondFactor(ctx: AppContext, actor: Actor, proof: SecondFactorProof) {
  refuseWhileImpersonating(actor);
  if (secondFactorRequired(actor)) throw new AppError('TWO_FACTOR_REQUIRED');
  if (!(await factorOf(ctx.db, actor.userId))?.confirmedAt) throw new AppError('TWO_FACTOR_NOT_ENROLLED');
  // A session is no licence to guess: these codes count like the sign-in's.
  const attempt = await beginCodeAttempt(ctx, actor.userId);
  const removed = await ctx.db.transaction(async (tx) => {
    const passed =
      'code' in proof
        ? await acceptCode(ctx, tx, actor.userId, proof.code)
        : await acceptRecoveryCode(tx, actor.userId, proof.recoveryCode);
    if (passed) await removeFactor(tx, actor.userId);
    return passed;
  });
  if (!removed) {
    await wrongCode(ctx, attempt);
    throw new AppError('TWO_FACTOR_CODE_INVALID');
  }
  await endCodeAttempt(ctx, attempt);
}

/**
 * An administrator removes another user's second factor (a lost phone): 404 unless their User rules reach the user,
 * 403 unless they may update them. The user enrols again at their next sign-in when it is required. Not oneself.
 */
export async function resetSecondFactor(ctx: AppContext, actor: Actor, userId: string) {
  await userAccess.authorize(ctx.db, actor, 'update', userId);
  if (userId === actor.userId) throw new AppError('TWO_FACTOR_RESET_SELF');
  const before = await factorOf(ctx.db, userId);
  await ctx.db.transaction(async (tx) => {
    await removeFactor(tx, userId);
    await liftSecondFactorLock(tx, userId);
  });
  return {
    before: { userId, twoFactorEnabled: Boolean(before?.confirmedAt) },
    after: { userId, twoFactorEnabled: false },
  };
}

/**
 * A fresh code of the signed-in user's authenticator before a sensitive step (an Administrator revealing a mail's
 * link). Without a confirmed factor the step is refused (TWO_FACTOR_NOT_ENROLLED), never confirmed another way; a
 * wrong code, or one already used (at sign-in too), is TWO_FACTOR_CODE_INVALID.
 */
export async function confirmFreshCode(ctx: AppContext, actor: Actor, code: string): Promise<void> {
  if (!(await factorOf(ctx.db, actor.userId))?.confirmedAt) throw new AppError('TWO_FACTOR_NOT_ENROLLED');
  const accepted = await ctx.db.transaction((tx) => acceptCode(ctx, tx, actor.userId, code));
  if (!accepted) throw new AppError('TWO_FACTOR_CODE_INVALID');
}
