import type { Language, UserKind } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.ts';
import { jobWaiting } from '../../db/waiting-job.ts';

/** A message a WhatsApp user sent, as the webhook stored it. */
export interface InboundMessage extends Record<string, unknown> {
  id: string;
  company_id: string;
  wa_message_id: string;
  contact: string;
  contact_name: string | null;
  kind: string;
  status: string;
  payload: {
    timestamp?: string;
    text?: { body?: string };
    audio?: { id?: string };
  };
}

/** A part of a reply waiting to be sent, with the id Meta gave the question it answers. */
export interface PendingReplyPart extends Record<string, unknown> {
  id: string;
  company_id: string;
  contact: string;
  body: string;
  in_wa_id: string | null;
}

/** How far an outgoing message has come: Meta's statuses may arrive out of order and never step back. */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/**
 * Stores a message from the webhook once (Meta delivers again on a slow answer, or after an error): its id while no
 * job has taken it up for answering (a delivery whose job could not be queued is queued again by the next one), or
 * null once one has.
 */
export async function storeInbound(
  db: Db,
  message: {
    companyId: string;
    waMessageId: string;
    contact: string;
    contactName: string | null;
    kind: string;
    payload: unknown;
  },
): Promise<string | null> {
  const { rows } = await db.execute<{ id: string }>(sql`insert into whatsapp_messages
      (company_id, direction, wa_message_id, contact, contact_name, kind, payload, status)
    values (${message.companyId}, 'in', ${message.waMessageId}, ${message.contact}, ${message.contactName},
      ${message.kind}, ${JSON.stringify(message.payload)}::jsonb, 'received')
    on conflict (company_id, direction, wa_message_id) where wa_message_id is not null
      do update set updated_at = whatsapp_messages.updated_at where whatsapp_messages.status = 'received'
    returning id`);
  return rows[0]?.id ?? null;
}

/** Moves an outgoing message to a later delivery status (`rank` orders them: pending 0 … failed 4). */
export async function advanceDelivery(
  db: Db,
  companyId: string,
  waMessageId: string,
  next: { status: DeliveryStatus; rank: number; errorCode: string | null },
): Promise<void> {
  await db.execute(sql`update whatsapp_messages set status = ${next.status}, error_code = ${next.errorCode},
      updated_at = now()
    where company_id = ${companyId} and direction = 'out' and wa_message_id = ${waMessageId}
      and (case status when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3
        else 4 end) < ${next.rank}`);
}

/** A received message by its id. */
export async function inboundMessage(db: Db, id: string): Promise<InboundMessage | null> {
  const { rows } =
    await db.execute<InboundMessage>(sql`select id, company_id, wa_message_id, contact, contact_name,
      kind, status, payload from whatsapp_messages where id = ${id} and direction = 'in'`);
  return rows[0] ?? null;
}

/** A message's status (with an error code, for a failure). */
export async function setMessageStatus(
  db: Db,
  id: string,
  status: string,
  errorCode: string | null = null,
): Promise<void> {
  await db.execute(sql`update whatsapp_messages set status = ${status}, error_code = ${errorCode}, updated_at = now()
    where id = ${id}`);
}

/** Claims a received message for answering, with the question it asks: whether this call did. */
export async function claimInbound(db: Db, id: string, question: string): Promise<boolean> {
  const { rows } = await db.execute(sql`update whatsapp_messages set status = 'answering',
    body = ${question}, updated_at = now() where id = ${id} and status = 'received' returning id`);
  return rows.length > 0;
}

/** A reply's part, pending, in the order it is sent. */
export async function insertReplyPart(
  tx: DbOrTx,
  inbound: Pick<InboundMessage, 'id' | 'company_id' | 'contact'>,
  part: { index: number; body: string; chatMessageId: string | null },
): Promise<void> {
  await tx.execute(sql`insert into whatsapp_messages
      (company_id, direction, contact, kind, body, status, reply_to, part, chat_message_id)
    values (${inbound.company_id}, 'out', ${inbound.contact}, 'text', ${part.body}, 'pending', ${inbound.id},
      ${part.index}, ${part.chatMessageId})`);
}

/** The question's outcome, with the chat message that holds its answer. */
export async function setInboundOutcome(
  tx: DbOrTx,
  id: string,
  outcome: string,
  chatMessageId: string | null,
): Promise<void> {
  await tx.execute(sql`update whatsapp_messages set status = ${outcome}, chat_message_id = ${chatMessageId},
    updated_at = now() where id = ${id}`);
}

/** The parts of a question's reply not sent yet, in order. */
export async function pendingReplyParts(db: Db, inboundId: string): Promise<PendingReplyPart[]> {
  const { rows } = await db.execute<PendingReplyPart>(sql`
    select o.id, o.company_id, o.contact, o.body, i.wa_message_id as in_wa_id from whatsapp_messages o
    join whatsapp_messages i on i.id = o.reply_to
    where o.reply_to = ${inboundId} and o.direction = 'out' and o.status = 'pending' order by o.part`);
  return rows;
}

/** Messages that will not be sent, with why. */
export async function failMessages(db: Db, ids: string[], errorCode: string): Promise<void> {
  await db.execute(sql`update whatsapp_messages set status = 'failed', error_code = ${errorCode}, updated_at = now()
    where id = any(${sql.param(ids)}::uuid[])`);
}

/** A pending part Meta took, under the id it gave it. */
export async function markPartSent(db: Db, id: string, waMessageId: string): Promise<void> {
  await db.execute(sql`update whatsapp_messages set status = 'sent', wa_message_id = ${waMessageId},
    sent_at = now(), updated_at = now() where id = ${id} and status = 'pending'`);
}

/** The company's active users whose saved number is this WhatsApp number (digits only), at most two. */
export async function usersOfNumber(db: Db, companyId: string, waId: string) {
  const { rows } = await db.execute<{ id: string; kind: UserKind; verified: string | null }>(sql`
    select u.id, u.kind, u.phone_verified_digits as verified from users u
    where u.company_id = ${companyId} and u.disabled_at is null and u.phone is not null
      and regexp_replace(u.phone, '\\D', '', 'g') = ${waId}
    limit 2`);
  return rows;
}

/** The public chat's visitor of a WhatsApp number (one per chat and number, by `tokenHash`): its id. */
export async function upsertNumberVisitor(
  db: Db,
  visitor: { companyId: string; chatId: string; tokenHash: string; name: string | null; phone: string },
): Promise<string> {
  const { rows } = await db.execute<{ id: string }>(sql`insert into chat_visitors
      (company_id, chat_id, token_hash, name, phone)
    values (${visitor.companyId}, ${visitor.chatId}, ${visitor.tokenHash}, ${visitor.name}, ${visitor.phone})
    on conflict (token_hash) do update set last_seen_at = now(), name = coalesce(excluded.name, chat_visitors.name)
    returning id`);
  return rows[0]!.id;
}

/** Whether the chat is one of the company's public chats. */
export async function isPublicChatOf(db: Db, companyId: string, chatId: string): Promise<boolean> {
  const { rows } = await db.execute(
    sql`select 1 from chats where id = ${chatId} and company_id = ${companyId} and visibility = 'public'`,
  );
  return rows.length > 0;
}

/**
 * Counts an attempt at each open code sent to this number for a user of the company whose saved number it still
 * is (below `maxAttempts`): the codes to compare, with their users' languages.
 */
export async function attemptPhoneCodes(db: Db, companyId: string, waId: string, maxAttempts: number) {
  const { rows } = await db.execute<{ user_id: string; code_hash: string; language: Language }>(sql`
    update phone_verifications pv set attempts = pv.attempts + 1
    from users u
    where u.id = pv.user_id and u.company_id = ${companyId} and u.disabled_at is null
      and pv.phone_digits = ${waId} and regexp_replace(coalesce(u.phone, ''), '\\D', '', 'g') = ${waId}
      and pv.expires_at > now() and pv.attempts < ${maxAttempts}
    returning pv.user_id, pv.code_hash, u.language`);
  return rows;
}

/** The user's number as confirmed from WhatsApp, while it is still the number they saved. */
export async function confirmPhoneDigits(tx: DbOrTx, userId: string, waId: string): Promise<void> {
  await tx.execute(sql`update users set phone_verified_digits = ${waId}, updated_at = now()
    where id = ${userId} and regexp_replace(coalesce(phone, ''), '\\D', '', 'g') = ${waId}`);
}

/**
 * Work the WhatsApp jobs lost (a crash or a failed send between a commit and its job's send), unchanged for
 * `settledSeconds`: incoming messages still `received` with no `inboundJob` for them, and the incoming messages
 * whose reply has parts still `pending` with no `replyJob` (both jobs' singleton key is the incoming message's id).
 */
export async function strandedWhatsApp(
  db: Db,
  jobs: { inboundJob: string; replyJob: string },
  settledSeconds: number,
): Promise<{ unanswered: string[]; unsent: string[] }> {
  const { rows } = await db.execute<{ id: string; kind: 'unanswered' | 'unsent' }>(sql`
    select distinct m.reply_to as id, 'unsent' as kind from whatsapp_messages m
    where m.status = 'pending' and m.direction = 'out'
      and m.created_at <= now() - make_interval(secs => ${settledSeconds})
      and not ${jobWaiting([jobs.replyJob], sql`j.singleton_key = m.reply_to::text`)}
    union all
    select m.id, 'unanswered' from whatsapp_messages m
    where m.status = 'received' and m.direction = 'in'
      and m.created_at <= now() - make_interval(secs => ${settledSeconds})
      and not ${jobWaiting([jobs.inboundJob], sql`j.singleton_key = m.id::text`)}`);
  return {
    unanswered: rows.filter((r) => r.kind === 'unanswered').map((r) => r.id),
    unsent: rows.filter((r) => r.kind === 'unsent').map((r) => r.id),
  };
}
