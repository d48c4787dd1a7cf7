import type { Tx } from '../../db/database.ts';
import type { emailInbound } from '../../db/schema/index.ts';
import { lockSenderAndThread, placesTakenLastHour } from './email-inbound.queries.ts';

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
  await lockSenderAndThread(tx, mail, root);
  const taken = await placesTakenLastHour(tx, mail, root);
  const waits: Date[] = [];
  if (taken.sender >= PER_SENDER_PER_HOUR && taken.senderFree) waits.push(taken.senderFree);
  if (taken.thread >= PER_THREAD_PER_HOUR && taken.threadFree) waits.push(taken.threadFree);
  return waits.length > 0 ? new Date(Math.max(...waits.map((d) => d.getTime()))) : null;
}
