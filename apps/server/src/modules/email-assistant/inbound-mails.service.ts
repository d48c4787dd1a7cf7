import type { InboundFate, InboundMail, InboundMailQuery, InboundReason } from '@werkwissen/shared';
import { chatAccess } from '../../access/chat.access.ts';
import { emailSettingAccess } from '../../access/email-setting.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { containsPattern } from '../../db/like.ts';
import type { InboundStatus } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { inboundPage, type ListedInbound } from './email-inbound.queries.ts';

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

const iso = (v: Date | null) => v?.toISOString() ?? null;

/** Why: an ignored, failed or waiting mail's reason; what is being done with one in progress. */
function reasonOf(row: ListedInbound): InboundReason | null {
  if (row.status === 'answered') return null;
  if (row.status === 'queued' || row.status === 'answering' || row.status === 'sending') return row.status;
  return (row.reason as InboundReason | null) ?? null;
}

function present(row: ListedInbound, actor: Actor): InboundMail {
  const reason = reasonOf(row);
  // A reply the SMTP server refused so far is being sent again.
  const key = reason === 'sending' && row.error ? 'sendingAgain' : reason;
  return {
    id: row.id,
    from: row.fromAddress,
    subject: row.subject,
    receivedAt: row.receivedAt.toISOString(),
    fate: FATE[row.status],
    reason,
    reasonText: key ? translate(actor.language, `emailSettings.mails.reasons.${key}`) : null,
    answeredAt: iso(row.answeredAt),
    retryAt: iso(row.retryAt),
    chatId: row.chatId,
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
  const { items, total } = await inboundPage(
    ctx.db,
    settingId,
    {
      statuses: query.fate ? STATUSES_OF(query.fate) : null,
      like: query.q ? containsPattern(query.q) : null,
    },
    chatAccess.where(actor, 'read', 'c'),
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  return {
    items: items.map((r) => present(r, actor)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
