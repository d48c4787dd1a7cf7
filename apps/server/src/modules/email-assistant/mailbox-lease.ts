import type { AppContext } from '../../app-context.ts';
import type { EmailSettingRow } from './email-settings.queries.ts';
import type { MailFailure } from './mail-connection.ts';
import {
  endLease,
  extendLeases,
  forgetWatchers,
  leaseFreeMailboxes,
  mailboxesAndCapacities,
  noteWatcher,
  storeCheck,
} from './mailbox-leases.queries.ts';

/**
 * A lease lasts this long unless its holder renews it (every scan, see `mailbox-watchers.ts`): a worker that died
 * gives its mailboxes up after this, and a worker seen within it counts as alive.
 */
export const LEASE_SECONDS = 15;
/** The longest wait before a failed mailbox is tried again: a server that is back is read within it. */
const RETRY_MAX_SECONDS = 30;
/** A refused sign-in, certificate or address is not retried faster than this (a wrong password can lock accounts). */
const RETRY_MAX_REFUSED_SECONDS = 300;

/**
 * Takes up to `count` free mailboxes for `holder`, the longest unread first; with `unreadFor`, only those not read
 * for that many seconds (a poll's turn). One statement with `for update skip locked`: two workers never take the same
 * mailbox.
 */
export async function takeMailboxes(
  ctx: AppContext,
  holder: string,
  count: number,
  unreadFor?: number,
): Promise<EmailSettingRow[]> {
  if (count <= 0) return [];
  return leaseFreeMailboxes(ctx.db, { holder, seconds: LEASE_SECONDS }, count, unreadFor);
}

/**
 * Renews the holder's leases of these mailboxes; returns those still the holder's, with when each was last saved (a
 * changed setting is read again with its new details).
 */
export async function renewLeases(
  ctx: AppContext,
  holder: string,
  ids: string[],
): Promise<Map<string, Date>> {
  if (ids.length === 0) return new Map();
  const rows = await extendLeases(ctx.db, { holder, seconds: LEASE_SECONDS }, ids);
  return new Map(rows.map((r) => [r.id, r.updatedAt]));
}

/** How long a mailbox waits after its `failures`-th failure in a row: doubling, at most 30 s (5 min when refused). */
export function retryDelaySeconds(failures: number, failure: MailFailure): number {
  const refused = failure === 'auth' || failure === 'tls' || failure === 'blocked';
  const max = refused ? RETRY_MAX_REFUSED_SECONDS : RETRY_MAX_SECONDS;
  const base = Math.min(max, 2 ** Math.min(failures, 9));
  // Spread, so that the mailboxes of a server that comes back do not all connect in the same instant.
  return base * (1 + Math.random() / 4);
}

/**
 * Gives a mailbox up: read (its check stored, failures forgotten), failed (why, and when it may be tried again), or
 * just released (a stopping worker, a changed setting, a share handed to another worker). Only the holder's lease.
 */
export async function releaseMailbox(
  ctx: AppContext,
  holder: string,
  id: string,
  outcome: { read: boolean } | { failure: MailFailure; failures: number },
): Promise<void> {
  await endLease(
    ctx.db,
    holder,
    id,
    'failure' in outcome
      ? { ...outcome, retryInSeconds: retryDelaySeconds(outcome.failures, outcome.failure) }
      : outcome.read
        ? { read: true }
        : null,
  );
}

/** Notes that a held mailbox was read (null) or why it could not be, keeping the lease. */
export async function noteChecked(
  ctx: AppContext,
  holder: string,
  id: string,
  failure: MailFailure | null,
): Promise<void> {
  await storeCheck(ctx.db, holder, id, failure);
}

/**
 * Says that this worker is alive and how many mailboxes it may hold; returns how many mailboxes there are and the
 * capacities of the live workers (this one included), from which each worker's share follows.
 */
export async function heartbeat(
  ctx: AppContext,
  holder: string,
  capacity: number,
): Promise<{ mailboxes: number; capacities: number[] }> {
  await noteWatcher(ctx.db, holder, capacity);
  return mailboxesAndCapacities(ctx.db, LEASE_SECONDS);
}

/** A stopping worker leaves; workers not seen for a while are forgotten. */
export async function leaveWatchers(ctx: AppContext, holder: string): Promise<void> {
  await forgetWatchers(ctx.db, holder, LEASE_SECONDS * 20);
}

/**
 * This worker's share of the mailboxes: the mailboxes spread evenly over the live workers, none given more than its
 * capacity, what a small one cannot hold going to the larger ones (water-filling over the capacities).
 */
export function shareOf(mailboxes: number, capacities: number[], own: number): number {
  const sorted = [...capacities].sort((a, b) => a - b);
  let left = mailboxes;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.min(sorted[i]!, Math.ceil(left / (sorted.length - i)));
    if (sorted[i] === own) return share;
    left -= share;
  }
  return Math.min(own, mailboxes);
}
