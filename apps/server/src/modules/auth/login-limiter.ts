import type { AppContext } from '../../app-context.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { releaseSlots } from '../limits/rate-limiter.ts';

export interface LoginAttempt {
  /** The failure slots this attempt holds; given back when it succeeds, so that successes never count. */
  slots: string[];
  /** Failed sign-ins of the account within the window, from any address, before this attempt. */
  accountFailures: number;
}

const windowOf = (ctx: AppContext) => ctx.config.LOGIN_FAILURE_WINDOW_MINUTES * 60;

/**
 * Reserves this sign-in's failure slots before the password is checked, atomically: the account from this address
 * (LOGIN_MAX_FAILURES_PER_ACCOUNT) and the address (LOGIN_MAX_FAILURES_PER_ADDRESS) are hard limits (429), so N
 * parallel guesses get exactly the limit. The account's failures from every address are only counted: past the
 * limit the caller asks for a bot check instead of locking the real owner out.
 */
export async function beginLoginAttempt(ctx: AppContext, email: string, ip: string): Promise<LoginAttempt> {
  const windowSeconds = windowOf(ctx);
  const taken = await takeSlotsOrRefuse(ctx, [
    { bucket: 'login-failure:account', key: email, max: Number.MAX_SAFE_INTEGER, windowSeconds },
    {
      bucket: 'login-failure:pair',
      key: `${email}|${ip}`,
      max: ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      windowSeconds,
    },
    {
      bucket: 'login-failure:address',
      key: ip,
      max: ctx.config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds,
    },
  ]);
  return { slots: taken.ids, accountFailures: taken.before[0]! };
}

/** The attempt succeeded (or was not a guess at all): its slots are given back. */
export const endLoginAttempt = (ctx: AppContext, attempt: LoginAttempt) => releaseSlots(ctx, attempt.slots);

/**
 * Wrong current passwords on the change-password form are limited per user like failed sign-ins, so a stolen
 * session cannot be used to guess the password; the slot is given back when the password was right.
 */
export async function beginPasswordCheck(ctx: AppContext, userId: string): Promise<string[]> {
  const taken = await takeSlotsOrRefuse(ctx, [
    {
      bucket: 'password-check:user',
      key: userId,
      max: ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      windowSeconds: windowOf(ctx),
    },
  ]);
  return taken.ids;
}
