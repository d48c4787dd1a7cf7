import type { InboundFate, InboundMail, InboundMailQuery, InboundReason } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { chatAccess } from '../../access/chat.access.ts';
import { emailSettingAccess } from '../../access/email-setting.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { containsPattern } from '../../db/like.ts';
import type { InboundStatus } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

const FATE: Record<InboundStatus, InboundFate> = {
  queued: 'waiting',
  waiting: 'waiting',
  answering: 'waiting',
  sending: 'waiting',
  answered: 'answered',
  ignored: 'ignored',
  failed: 'failed',
};

const STATUSES_OF = (fate: InboundFate) =>
  (Object.keys(FATE) as InboundStatus[]).filter((status) => FATE[status] === fate);

interface Row extends Record<string, unknown> {
  id: string;
  from_address: string;
  subject: string;
  received_at: string | Date;
  status: InboundStatus;
  reason: string | null;
  error: string | null;
  answered_at: string | Date | null;
  retry_at: string | Date | null;
  chat_id: string | null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** Why: an ignored, failed or waiting mail's reason; what is being done with one in progress. */
function reasonOf(row: Row): InboundReason | null {
  if (row.status === 'answered') return null;
  if (row.status === 'queued' || row.status === 'answering' || row.status === 'sending') return row.status;
  return (row.reason as InboundReason | null) ?? null;
}

function present(row: Row, actor: Actor): InboundMail {
  const reason = reasonOf(row);
  // A reply the SMTP server refused so far is being sent again.
  const key = reason === 'sending' && row.error ? 'sendingAgain' : reason;
  return {
    id: row.id,
    from: row.from_address,
    subject: row.subject,
    receivedAt: iso(row.received_at)!,
    fate: FATE[row.status],
    reason,
    reasonText: key ? translate(actor.language, `emailSettings.mails.reasons.${key}`) : null,
    answeredAt: iso(row.answered_at),
    retryAt: iso(row.retry_at),
    chatId: row.chat_id,
  };
}

/**
 * A mailbox's incoming mails, newest first by when its server received them, each with its fate (the actor's
 * EmailSetting read rule on the setting: another company's is not found). With a conversation the actor may open,
 * its chat.
 */
export async function listInboundMails(
  ctx: AppContext,
  actor: Actor,
  settingId: string,
  query: InboundMailQuery,
) {
  await emailSettingAccess.authorize(ctx.db, actor, 'read', settingId);
  const like = query.q ? containsPattern(query.q) : null;
  const where = sql`i.setting_id = ${settingId}
    ${query.fate ? sql`and i.status = any(${sql.param(STATUSES_OF(query.fate))}::text[])` : sql``}
    ${like ? sql`and (i.from_address ilike ${like} or i.subject ilike ${like})` : sql``}`;
  const [{ rows }, { rows: total }] = await Promise.all([
    ctx.db.execute<Row>(sql`select i.id, i.from_address, i.subject,
        coalesce(i.delivered_at, i.received_at) as received_at, i.status, i.reason, i.error, i.answered_at,
        i.retry_at, c.id as chat_id
      from email_inbound i
      left join email_conversations ec on ec.id = i.conversation_id
      left join chats c on c.id = ec.chat_id and ${chatAccess.where(actor, 'read', 'c')}
      where ${where}
      order by i.received_at desc, i.id desc
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number | string }>(sql`select count(*) as n from email_inbound i where ${where}`),
  ]);
  return {
    items: rows.map((r) => present(r, actor)),
    total: Number(total[0]?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}
