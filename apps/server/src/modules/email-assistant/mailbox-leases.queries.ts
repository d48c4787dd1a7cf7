import { and, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { emailSettings, mailWatchers } from '../../db/schema/index.ts';
import type { EmailSettingRow } from './email-settings.queries.ts';

const secondsFromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
const secondsAgo = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

/** Free: nobody holds it (or the holder's lease ran out) and no retry is waiting. */
const free = sql`(${emailSettings.leaseUntil} is null or ${emailSettings.leaseUntil} < now())
  and (${emailSettings.retryAt} is null or ${emailSettings.retryAt} <= now())`;

/**
 * Leases up to `count` free mailboxes to `holder` for `leaseSeconds`, the longest unread first; with `unreadFor`,
 * only those not read for that many seconds. One statement with `for update skip locked`: two workers never take
 * the same mailbox.
 */
export async function leaseFreeMailboxes(
  db: DbOrTx,
  lease: { holder: string; seconds: number },
  count: number,
  unreadFor: number | undefined,
): Promise<EmailSettingRow[]> {
  const due: SQL =
    unreadFor === undefined
      ? sql``
      : sql`and (checked_at is null or checked_at < now() - make_interval(secs => ${unreadFor}))`;
  return db
    .update(emailSettings)
    .set({ leaseHolder: lease.holder, leaseUntil: secondsFromNow(lease.seconds) })
    .where(
      sql`${emailSettings.id} in (select id from email_settings where ${free} ${due}
        order by checked_at nulls first, id limit ${count} for update skip locked)`,
    )
    .returning();
}

/** Extends the holder's leases of these mailboxes to `leaseSeconds` from now: those still its, with when each was saved. */
export async function extendLeases(
  db: DbOrTx,
  lease: { holder: string; seconds: number },
  ids: string[],
): Promise<{ id: string; updatedAt: Date }[]> {
  return db
    .update(emailSettings)
    .set({ leaseUntil: secondsFromNow(lease.seconds) })
    .where(and(eq(emailSettings.leaseHolder, lease.holder), inArray(emailSettings.id, ids)))
    .returning({ id: emailSettings.id, updatedAt: emailSettings.updatedAt });
}

/** What a mailbox's last read left: read now (failures forgotten), failed (why, and how soon to try again), or nothing. */
export type ReadOutcome =
  | { read: true }
  | { failure: string; failures: number; retryInSeconds: number }
  | null;

function checkValues(outcome: ReadOutcome) {
  if (outcome === null) return {};
  if ('read' in outcome) return { checkedAt: new Date(), checkError: null, failures: 0, retryAt: null };
  return {
    checkedAt: new Date(),
    checkError: outcome.failure,
    failures: outcome.failures,
    retryAt: secondsFromNow(outcome.retryInSeconds),
  };
}

/** Ends the holder's lease of a mailbox, storing how its last read went. */
export async function endLease(db: DbOrTx, holder: string, id: string, outcome: ReadOutcome): Promise<void> {
  await db
    .update(emailSettings)
    .set({ ...checkValues(outcome), leaseHolder: null, leaseUntil: null })
    .where(and(eq(emailSettings.id, id), eq(emailSettings.leaseHolder, holder)));
}

/** Stores that a held mailbox was read (null) or why it could not be, keeping the lease. */
export async function storeCheck(
  db: DbOrTx,
  holder: string,
  id: string,
  failure: string | null,
): Promise<void> {
  await db
    .update(emailSettings)
    .set({ checkedAt: new Date(), checkError: failure, ...(failure ? {} : { failures: 0, retryAt: null }) })
    .where(and(eq(emailSettings.id, id), eq(emailSettings.leaseHolder, holder)));
}

/** Notes a worker alive now, with how many mailboxes it may hold. */
export async function noteWatcher(db: DbOrTx, holder: string, capacity: number): Promise<void> {
  await db
    .insert(mailWatchers)
    .values({ id: holder, capacity })
    .onConflictDoUpdate({ target: mailWatchers.id, set: { capacity, seenAt: sql`now()` } });
}

/** How many mailboxes there are, and the capacities of the workers seen within `seenWithin` seconds. */
export async function mailboxesAndCapacities(
  db: DbOrTx,
  seenWithin: number,
): Promise<{ mailboxes: number; capacities: number[] }> {
  const { rows } = await db.execute<{ mailboxes: number; capacities: number[] | null }>(sql`select
      (select count(*)::int from email_settings) as mailboxes,
      (select array_agg(capacity) from mail_watchers where seen_at > ${secondsAgo(seenWithin)}) as capacities`);
  return { mailboxes: rows[0]?.mailboxes ?? 0, capacities: rows[0]?.capacities ?? [] };
}

/** Forgets a worker, and the workers not seen within `seenWithin` seconds. */
export async function forgetWatchers(db: DbOrTx, holder: string, seenWithin: number): Promise<void> {
  await db
    .delete(mailWatchers)
    .where(or(eq(mailWatchers.id, holder), lt(mailWatchers.seenAt, secondsAgo(seenWithin))));
}
