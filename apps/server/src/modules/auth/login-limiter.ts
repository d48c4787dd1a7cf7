import { and, count, eq, gt, lt, min } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { loginFailures } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';

/**
 * Failed sign-ins are limited per account and per client address within a window; a successful sign-in never
 * counts. Over the limit the answer is 429 with Retry-After until the oldest failure in the window ages out.
 */
export async function assertLoginAllowed(ctx: AppContext, email: string, ip: string): Promise<void> {
  const windowMs = ctx.config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000;
  const since = new Date(Date.now() - windowMs);
  const checks = [
    { scope: 'account' as const, key: email, max: ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT },
    { scope: 'address' as const, key: ip, max: ctx.config.LOGIN_MAX_FAILURES_PER_ADDRESS },
  ];
  for (const check of checks) {
    const [row] = await ctx.db
      .select({ n: count(), oldest: min(loginFailures.createdAt) })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.scope, check.scope),
          eq(loginFailures.key, check.key),
          gt(loginFailures.createdAt, since),
        ),
      );
    if (row && row.n >= check.max) {
      const oldest = row.oldest ? new Date(row.oldest).getTime() : Date.now();
      const seconds = Math.max(1, Math.ceil((oldest + windowMs - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', { seconds, scope: check.scope }, { 'retry-after': String(seconds) });
    }
  }
}

export async function recordLoginFailure(ctx: AppContext, email: string, ip: string): Promise<void> {
  await ctx.db.insert(loginFailures).values([
    { scope: 'account', key: email },
    { scope: 'address', key: ip },
  ]);
  const horizon = new Date(Date.now() - 24 * 3600_000);
  await ctx.db.delete(loginFailures).where(lt(loginFailures.createdAt, horizon));
}
