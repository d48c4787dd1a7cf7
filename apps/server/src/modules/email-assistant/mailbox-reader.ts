import { eq } from 'drizzle-orm';
import type { ImapFlow } from 'imapflow';
import type { AppContext } from '../../app-context.ts';
import { emailSettings } from '../../db/schema/index.ts';
import { answerMailJob } from './answer-mail.job.ts';
import { type HeldMailbox, passOver, queueMail, resetCursor, skipLargeMail } from './mailbox-cursor.ts';

/** At most this many new mails are read before the mailbox's list of new mails is asked for again. */
const BATCH = 50;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A mail that arrives later but was received before the cut-off (an old mail moved into INBOX keeps its INTERNALDATE)
 * is passed over too, unless within this much of the cut-off: a mail server whose clock runs behind ours still has
 * its new mail read.
 */
const CLOCK_SKEW_MS = 10 * 60 * 1000;

/**
 * Where a new cursor starts (a first read, or a mailbox whose UIDVALIDITY changed): before the first mail the
 * mailbox's server received at or after the setting's cut-off (`answer_from`: when it was saved, or the time its
 * data manager chose), so that older mail is never read. UIDs grow with arrival: the mails found by IMAP SEARCH
 * SINCE (whole days) the day before are looked at by their INTERNALDATE (whole seconds); none: after the last one.
 */
async function cursorStart(client: ImapFlow, answerFrom: Date): Promise<number> {
  const end = (client.mailbox ? Number(client.mailbox.uidNext) : 1) - 1;
  const cutoff = Math.floor(answerFrom.getTime() / 1000) * 1000;
  const found = await client.search({ since: new Date(cutoff - DAY_MS) }, { uid: true });
  if (!found || found.length === 0) return end;
  const first = Math.min(...found);
  let start = end;
  for await (const m of client.fetch(`${first}:*`, { uid: true, internalDate: true }, { uid: true })) {
    const at = m.internalDate ? new Date(m.internalDate).getTime() : 0;
    if (m.uid >= first && at >= cutoff && m.uid - 1 < start) start = m.uid - 1;
  }
  return start;
}

/**
 * One pass over a held mailbox: the UIDs, sizes and arrival times of the mails after the cursor first, then, in
 * batches of BATCH, each mail on its own: one received well before the setting's cut-off is passed over unread; one over
 * MAIL_ASSISTANT_MAX_MAIL_MB is stored as not answered from its envelope and never downloaded; any other is
 * downloaded, parsed, judged and stored with the cursor moved past it in one transaction, then its answer queued. A
 * changed UIDVALIDITY starts the cursor anew (mails seen before are known by their Message-ID). Fetched with
 * BODY.PEEK on a read-only mailbox: nothing is marked read.
 */
export async function readNewMail(
  ctx: AppContext,
  client: ImapFlow,
  held: HeldMailbox,
  signal: AbortSignal,
): Promise<void> {
  const box = client.mailbox;
  if (!box) return;
  // Who is answered, as saved now: a save applies to the next mail, not only to the next session.
  const [rules] = await ctx.db
    .select({
      allowedEmails: emailSettings.allowedEmails,
      fromEmail: emailSettings.fromEmail,
      smtpEmail: emailSettings.smtpEmail,
      authservId: emailSettings.authservId,
    })
    .from(emailSettings)
    .where(eq(emailSettings.id, held.setting.id));
  if (rules) Object.assign(held.setting, rules);
  const validity = String(box.uidValidity);
  if (held.setting.uidValidity !== validity)
    await resetCursor(ctx, held, validity, await cursorStart(client, held.setting.answerFrom));
  if (box.exists === 0) return;
  const maxBytes = ctx.config.MAIL_ASSISTANT_MAX_MAIL_MB * 1024 * 1024;
  const old = held.setting.answerFrom.getTime() - CLOCK_SKEW_MS;
  for (;;) {
    const after = held.setting.lastUid;
    const found: Array<{ uid: number; size: number; at: Date | null }> = [];
    const listing = { uid: true, size: true, internalDate: true } as const;
    for await (const message of client.fetch(`${after + 1}:*`, listing, { uid: true })) {
      const at = message.internalDate ? new Date(message.internalDate) : null;
      if (message.uid > after) found.push({ uid: message.uid, size: message.size ?? 0, at });
    }
    const batch = found.sort((a, b) => a.uid - b.uid).slice(0, BATCH);
    for (const { uid, size, at } of batch) {
      if (signal.aborted) return;
      if (at && at.getTime() < old) {
        await passOver(ctx, held, uid);
        continue;
      }
      const whole =
        size <= maxBytes && (await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true }));
      const source = whole ? whole.source : undefined;
      if (!source || source.length > maxBytes) {
        const head = await client.fetchOne(String(uid), { uid: true, envelope: true }, { uid: true });
        // A mail expunged meanwhile is passed by; one over the limit is noted as such.
        if (head) await skipLargeMail(ctx, held, uid, head.envelope, at);
        continue;
      }
      const queued = await queueMail(ctx, held, uid, source, at);
      if (queued) await ctx.jobs.send(answerMailJob, { inboundId: queued });
    }
    if (found.length <= BATCH) return;
  }
}
