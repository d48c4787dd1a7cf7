import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/database.ts';
import type { emailInbound } from '../../db/schema/index.ts';

/** Answers to one sender of a mailbox per hour, and within one thread: a mail beyond them waits for its turn. */
export const PER_SENDER_PER_HOUR = 20;
export const PER_THREAD_PER_HOUR = 5;

type Inbound = typeof emailInbound.$inferSelect;

/**
 * Takes the mail's place under its sender's and its thread's hourly limits inside the claiming transaction `tx`, or
 * says when it may have one: an hour after the oldest place of the limit that is full. The sender's and the thread's
 * counts are taken under transaction-scoped advisory locks (always the sender's first), so that mails answered in
 * parallel are counted one after another and never pass a limit together. Returns null when the place is taken
 * (the caller stores `slot_at` in the same transaction).
 */
export async function waitForSlot(tx: Tx, mail: Inbound): Promise<Date | null> {
  const root = mail.references[0] ?? mail.messageId;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`mail-sender ${mail.settingId} ${mail.fromAddress}`}, 0))`,
  );
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`mail-thread ${mail.settingId} ${root}`}, 0))`,
  );
  const { rows } = await tx.execute<{
    sender: number | string;
    thread: number | string;
    sender_free: string | Date | null;
    thread_free: string | Date | null;
  }>(sql`select
      count(*) filter (where from_address = ${mail.fromAddress}) as sender,
      count(*) filter (where "references"->>0 = ${root}) as thread,
      min(slot_at) filter (where from_address = ${mail.fromAddress}) + interval '1 hour' as sender_free,
      min(slot_at) filter (where "references"->>0 = ${root}) + interval '1 hour' as thread_free
    from email_inbound
    where setting_id = ${mail.settingId} and slot_at > now() - interval '1 hour' and id <> ${mail.id}`);
  const row = rows[0];
  const waits: Date[] = [];
  if (Number(row?.sender ?? 0) >= PER_SENDER_PER_HOUR && row?.sender_free)
    waits.push(new Date(row.sender_free));
  if (Number(row?.thread ?? 0) >= PER_THREAD_PER_HOUR && row?.thread_free)
    waits.push(new Date(row.thread_free));
  return waits.length > 0 ? new Date(Math.max(...waits.map((d) => d.getTime()))) : null;
}
