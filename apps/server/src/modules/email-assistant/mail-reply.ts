import { createHash } from 'node:crypto';
import type { Language } from '@werkwissen/shared';
import type { emailInbound, emailSettings } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

interface ReplyInput {
  mail: typeof emailInbound.$inferSelect;
  setting: typeof emailSettings.$inferSelect;
  answer: { text: string; citations: Array<{ n: number; fileName: string; page: number | null }> };
  /** The mail's language: the answer's, and its "Sources" line. */
  language: Language;
}

/** "Re: " once, however many "Re:", "AW:", "Fwd:"-free reply prefixes the subject already has. */
export function replySubject(subject: string): string {
  const bare = subject.replace(/^\s*((re|aw|sv|antw|ref|rif|odp|res|ответ|відп)\s*(\[\d+\])?\s*:\s*)+/iu, '');
  return `Re: ${bare.trim()}`;
}

/** The answer's text with its sources: one line per cited passage, file name and page. */
export function replyText(input: Pick<ReplyInput, 'answer' | 'language'>): string {
  const { answer, language } = input;
  if (answer.citations.length === 0) return `${answer.text}\n`;
  const sources = [...new Map(answer.citations.map((c) => [c.n, c])).values()]
    .sort((a, b) => a.n - b.n)
    .map((c) =>
      c.page === null
        ? `[${c.n}] ${c.fileName}`
        : `[${c.n}] ${translate(language, 'mailAssistant.sourcePage', { file: c.fileName, page: c.page })}`,
    );
  return `${answer.text}\n\n${translate(language, 'mailAssistant.sources')}\n${sources.join('\n')}\n`;
}

/**
 * The reply in the mail's thread: `In-Reply-To` and `References` set, one "Re:", marked `Auto-Submitted:
 * auto-replied` (RFC 3834) so that other robots do not answer it. Its Message-ID is made from the mail's, so a
 * retried send is the same message.
 */
export function composeReply(input: ReplyInput) {
  const { mail, setting } = input;
  const domain = setting.fromEmail.split('@')[1] ?? 'werkwissen.invalid';
  const hash = createHash('sha256').update(`${mail.settingId}:${mail.messageId}`).digest('hex').slice(0, 32);
  return {
    from: setting.fromEmail,
    to: mail.fromAddress,
    subject: replySubject(mail.subject),
    text: replyText(input),
    messageId: `<reply-${hash}@${domain}>`,
    inReplyTo: mail.messageId,
    references: mail.references,
    headers: { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' },
  };
}
