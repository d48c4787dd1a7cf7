import { and, count, desc, eq, gt, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/database.ts';
import {
  chats,
  companies,
  emailConversations,
  emailInbound,
  emailSettings,
  type InboundStatus,
} from '../../db/schema/index.ts';
import { jobWaiting } from '../../db/waiting-job.ts';

type Inbound = typeof emailInbound.$inferSelect;

const QUEUED: InboundStatus = 'queued';
const WAITING: InboundStatus = 'waiting';
const ANSWERING: InboundStatus = 'answering';
const SENDING: InboundStatus = 'sending';
/** A mail not done with: queued, waiting, being answered or being sent. */
const PENDING: InboundStatus[] = [QUEUED, WAITING, ANSWERING, SENDING];

/** The database's clock, for a time stored beside others it compares with (`slot_at` against `now()`). */
export const databaseNow = sql<Date>`now()`;

/**
 * Locks a mail's sender and then its thread (`root`) for the rest of the transaction, so that mails answered in
 * parallel count their places one after another.
 */
export async function lockSenderAndThread(tx: Tx, mail: Inbound, root: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`mail-sender ${mail.settingId} ${mail.fromAddress}`}, 0))`,
  );
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`mail-thread ${mail.settingId} ${root}`}, 0))`,
  );
}

/**
 * The places other mails of the mailbox took within the last hour, from the mail's sender and in its thread, and
 * when the oldest of each frees up.
 */
export async function placesTakenLastHour(tx: Tx, mail: Inbound, root: string) {
  const fromSender = sql`${emailInbound.fromAddress} = ${mail.fromAddress}`;
  const inThread = sql`${emailInbound.references}->>0 = ${root}`;
  const [row] = await tx
    .select({
      sender: sql<number>`(count(*) filter (where ${fromSender}))::int`,
      thread: sql<number>`(count(*) filter (where ${inThread}))::int`,
      senderFree:
        sql<Date | null>`min(${emailInbound.slotAt}) filter (where ${fromSender}) + interval '1 hour'`.mapWith(
          emailInbound.slotAt,
        ),
      threadFree:
        sql<Date | null>`min(${emailInbound.slotAt}) filter (where ${inThread}) + interval '1 hour'`.mapWith(
          emailInbound.slotAt,
        ),
    })
    .from(emailInbound)
    .where(
      and(
        eq(emailInbound.settingId, mail.settingId),
        gt(emailInbound.slotAt, sql`now() - interval '1 hour'`),
        ne(emailInbound.id, mail.id),
      ),
    );
  return {
    sender: row?.sender ?? 0,
    thread: row?.thread ?? 0,
    senderFree: row?.senderFree ?? null,
    threadFree: row?.threadFree ?? null,
  };
}

/**
 * Locks the mail's row and says whether this job may claim it: a queued mail, a waiting one whose time has come, or
 * one this job (`runId`) claimed before.
 */
export async function lockIfClaimable(tx: Tx, inboundId: string, runId: string): Promise<boolean> {
  const { rows } = await tx.execute<{ claimable: boolean }>(sql`select
      (status = ${QUEUED} or (status = ${WAITING} and (retry_at is null or retry_at <= now()))
        or (status = ${ANSWERING} and (claimed_by is null or claimed_by = ${runId}))) as claimable
    from email_inbound where id = ${inboundId} for update`);
  return rows[0]?.claimable === true;
}

/** Claims a mail being sent for this job, or for its retry: the mail, or null when another job has it. */
export async function claimForSending(db: Db, inboundId: string, runId: string): Promise<Inbound | null> {
  const [mail] = await db
    .update(emailInbound)
    .set({ claimedBy: runId })
    .where(
      and(
        eq(emailInbound.id, inboundId),
        eq(emailInbound.status, SENDING),
        sql`(${emailInbound.claimedBy} is null or ${emailInbound.claimedBy} = ${runId})`,
      ),
    )
    .returning();
  return mail ?? null;
}

/**
 * Clears the claim of mails whose job went missing (queued, being answered or sent, or waiting with their time come,
 * older than `settleSeconds`, with no job of `jobNames` queued or running for them): which they are, and their status.
 */
export async function releaseStrandedMail(
  db: Db,
  jobNames: string[],
  settleSeconds: number,
): Promise<{ id: string; status: InboundStatus }[]> {
  const { rows } = await db.execute<{ id: string; status: InboundStatus }>(sql`update email_inbound i
    set claimed_by = null
    where i.status in ${PENDING}
      and i.received_at < now() - make_interval(secs => ${settleSeconds})
      and (i.status <> ${WAITING} or i.retry_at is null or i.retry_at <= now())
      and not ${jobWaiting(jobNames, sql`j.data->>'inboundId' = i.id::text`)}
    returning i.id, i.status`);
  return rows;
}

/** The address a mailbox answers from and its company's name. */
export async function mailboxSender(
  db: DbOrTx,
  settingId: string,
): Promise<{ fromEmail: string; company: string | null } | null> {
  const [row] = await db
    .select({ fromEmail: emailSettings.fromEmail, company: companies.name })
    .from(emailSettings)
    .innerJoin(companies, eq(companies.id, emailSettings.companyId))
    .where(eq(emailSettings.id, settingId));
  return row ?? null;
}

/** A mail as the mailbox's list shows it, with its conversation's chat when the reader may open it. */
export interface ListedInbound {
  id: string;
  fromAddress: string;
  subject: string;
  /** When the mailbox's server received it (when it was read, for a mail without that date). */
  receivedAt: Date;
  status: InboundStatus;
  reason: string | null;
  error: string | null;
  answeredAt: Date | null;
  retryAt: Date | null;
  chatId: string | null;
}

/** The chat a listed mail's conversation opens, as `c` for the reader's access fragment. */
const readableChat = alias(chats, 'c');

/**
 * One page of a mailbox's mails, newest first by when they were read, narrowed to some statuses and to a pattern of
 * the sender or subject (`ilike`); a conversation's chat only when it passes `chatReadable` (on `chats c`).
 */
export async function inboundPage(
  db: DbOrTx,
  settingId: string,
  filter: { statuses: InboundStatus[] | null; like: string | null },
  chatReadable: SQL,
  page: { limit: number; offset: number },
): Promise<{ items: ListedInbound[]; total: number }> {
  const where = and(
    eq(emailInbound.settingId, settingId),
    filter.statuses ? inArray(emailInbound.status, filter.statuses) : undefined,
    filter.like
      ? or(ilike(emailInbound.fromAddress, filter.like), ilike(emailInbound.subject, filter.like))
      : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: emailInbound.id,
        fromAddress: emailInbound.fromAddress,
        subject: emailInbound.subject,
        receivedAt: sql<Date>`coalesce(${emailInbound.deliveredAt}, ${emailInbound.receivedAt})`.mapWith(
          emailInbound.receivedAt,
        ),
        status: emailInbound.status,
        reason: emailInbound.reason,
        error: emailInbound.error,
        answeredAt: emailInbound.answeredAt,
        retryAt: emailInbound.retryAt,
        chatId: readableChat.id,
      })
      .from(emailInbound)
      .leftJoin(emailConversations, eq(emailConversations.id, emailInbound.conversationId))
      .leftJoin(readableChat, and(eq(readableChat.id, emailConversations.chatId), chatReadable))
      .where(where)
      .orderBy(desc(emailInbound.receivedAt), desc(emailInbound.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(emailInbound).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}
