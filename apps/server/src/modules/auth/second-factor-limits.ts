import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { type Limit, releaseSlots, takeSlots } from '../limits/rate-limiter.ts';
import { deleteEventsOf } from '../limits/rate-limits.queries.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { areaPaths } from './areas.ts';

/** How long wrong codes count towards the lock, and so how long a locked second factor stays locked at most. */
export const LOCK_WINDOW_SECONDS = 24 * 60 * 60;
const SLOW = 'second-factor-failure:slow';
const LOCK = 'second-factor-failure:lock';

function limitsOf(ctx: AppContext, userId: string): Limit[] {
  return [
    {
      bucket: SLOW,
      key: userId,
      max: ctx.config.TWO_FACTOR_MAX_FAILURES,
      windowSeconds: ctx.config.LOGIN_FAILURE_WINDOW_MINUTES * 60,
    },
    {
      bucket: LOCK,
      key: userId,
      max: ctx.config.TWO_FACTOR_LOCK_FAILURES,
      windowSeconds: LOCK_WINDOW_SECONDS,
    },
  ];
}

export interface CodeAttempt {
  userId: string;
  slots: string[];
  /** Wrong codes of the account within the lock window, this attempt included should it be wrong. */
  failuresIfWrong: number;
}

/**
 * Reserves one code attempt of the account before the code is looked at, over all its pending sign-ins (and the
 * account settings' code checks), atomically: parallel wrong codes never get more attempts than the limits between
 * them. Past TWO_FACTOR_MAX_FAILURES within the failed-login window the next code waits (TWO_FACTOR_SLOWED); past
 * TWO_FACTOR_LOCK_FAILURES within a day every code is refused, the right one too (TWO_FACTOR_LOCKED), until the day
 * has passed or a new password is set. Both answer 429 with Retry-After.
 */
export async function beginCodeAttempt(ctx: AppContext, userId: string): Promise<CodeAttempt> {
  const taken = await takeSlots(ctx, limitsOf(ctx, userId));
  if (!taken.ok) {
    const seconds = taken.retryAfterSeconds;
    throw new AppError(
      taken.limit.bucket === LOCK ? 'TWO_FACTOR_LOCKED' : 'TWO_FACTOR_SLOWED',
      { seconds, minutes: Math.ceil(seconds / 60) },
      { 'retry-after': String(seconds) },
    );
  }
  return { userId, slots: taken.ids, failuresIfWrong: taken.before[1]! + 1 };
}

/** The code was right (or never checked): the attempt does not count. */
export const endCodeAttempt = (ctx: AppContext, attempt: CodeAttempt) => releaseSlots(ctx, attempt.slots);

/**
 * The code was wrong: the attempt stays counted. The wrong code that reaches the slowing or the lock tells the
 * account's owner by mail (each count is reached by exactly one attempt, so each mail goes once): someone knows
 * their password.
 */
export async function wrongCode(ctx: AppContext, attempt: CodeAttempt): Promise<void> {
  const { TWO_FACTOR_MAX_FAILURES: slow, TWO_FACTOR_LOCK_FAILURES: lock } = ctx.config;
  if (attempt.failuresIfWrong !== slow && attempt.failuresIfWrong !== lock) return;
  const emailId = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, attempt.userId));
    if (!user) return null;
    return writeToOutbox(tx, ctx, {
      to: user.email,
      template: 'secondFactorFailures',
      language: user.language,
      name: user.firstName,
      actionPath: areaPaths(user.kind).forgotPassword,
      values: { failures: String(attempt.failuresIfWrong) },
      userId: user.id,
      companyId: user.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}

/** A new password (or a reset second factor) ends what wrong codes counted: whoever guessed no longer can. */
export async function liftSecondFactorLock(db: DbOrTx, userId: string): Promise<void> {
  await deleteEventsOf(db, [SLOW, LOCK], userId);
}
