import { createHash } from 'node:crypto';
import type { Language } from '@werkwissen/shared';
import type { emailInbound, emailSettings } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { bareSubject } from './mail-classify.ts';

interface Answer {
  text: string;
  citations: Array<{ n: number; fileName: string; page: number | null }>;
  /** Nothing in the documents answered it: the mail says so in its own words (a mail is not a chat). */
  noAnswer?: boolean;
}

/** "Re: " once, however many reply prefixes ("Re:", "AW:", not "Fwd:") the subject already has. */
export function replySubject(subject: string): string {
  return `Re: ${bareSubject(subject)}`;
}

/**
 * The reply's text, written once when the answer is stored: the answer with its sources (one line per cited
 * passage, file name and page) in the mail's language, and for an asker with an account the link to the
 * conversation in the web app.
 */
export function replyText(input: { answer: Answer; language: Language; link?: string | null }): string {
  const { answer, language, link } = input;
  const blocks = [answer.noAnswer ? translate(language, 'mailAssistant.noAnswer') : answer.text.trim()];
  if (answer.citations.length > 0 && !answer.noAnswer) {
    const sources = [...new Map(answer.citations.map((c) => [c.n, c])).values()]
      .sort((a, b) => a.n - b.n)
      .map((c) =>
        c.page === null
          ? `[${c.n}] ${c.fileName}`
          : `[${c.n}] ${translate(language, 'mailAssistant.sourcePage', { file: c.fileName, page: c.page })}`,
      );
    blocks.push([translate(language, 'mailAssistant.sources'), ...sources].join('\n'));
  }
  if (link) blocks.push(translate(language, 'mailAssistant.openConversation', { url: link }));
  return `${blocks.join('\n\n')}\n`;
}

/** The reply's Message-ID, made from the mail's: a retried send is the same message. */
export function replyMessageId(mail: { settingId: string; messageId: string }, fromEmail: string): string {
  const domain = fromEmail.split('@')[1] ?? 'werkwissen.invalid';
  const hash = createHash('sha256').update(`${mail.settingId}:${mail.messageId}`).digest('hex').slice(0, 32);
  return `<reply-${hash}@${domain}>`;
}

/**
 * The reply in the mail's thread, from the stored text: From the setting's address under the company's name,
 * `In-Reply-To` and `References` set, one "Re:", marked `Auto-Submitted: auto-replied` (RFC 3834) so that other
 * robots do not answer it.
 */
export function composeReply(input: {
  mail: typeof emailInbound.$inferSelect;
  setting: typeof emailSettings.$inferSelect;
  text: string;
  companyName: string | null;
}) {
  const { mail, setting, companyName } = input;
  return {
    from: companyName ? { name: companyName, address: setting.fromEmail } : setting.fromEmail,
    to: mail.fromAddress,
    subject: replySubject(mail.subject),
    text: input.text,
    messageId: replyMessageId(mail, setting.fromEmail),
    inReplyTo: mail.messageId,
    references: mail.references,
    headers: { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' },
  };
}
