import type { ErrorCode } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { type Limit, type SlotsTaken, takeSlots } from './rate-limiter.ts';

/**
 * Takes the slots of every limit or refuses with 429 and Retry-After; `codeOf` names the error of the limit that
 * was full (RATE_LIMITED unless told otherwise), and the details say which limit it was.
 */
export async function takeSlotsOrRefuse(
  ctx: AppContext,
  limits: Limit[],
  codeOf: (limit: Limit) => ErrorCode = () => 'RATE_LIMITED',
): Promise<SlotsTaken> {
  const taken = await takeSlots(ctx, limits);
  if (taken.ok) return taken;
  const seconds = taken.retryAfterSeconds;
  throw new AppError(
    codeOf(taken.limit),
    { seconds, scope: taken.limit.bucket.split(':').pop() },
    { 'retry-after': String(seconds) },
  );
}
