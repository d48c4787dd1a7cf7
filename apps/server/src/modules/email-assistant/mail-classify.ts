import type { ParsedMail } from 'mailparser';

/** Why a mail is not answered: none of these ever gets a reply, so that two robots never write to each other. */
export type IgnoreReason =
  | 'auto-reply'
  | 'bounce'
  | 'mailing-list'
  | 'ourselves'
  | 'not-allowed'
  | 'unauthenticated'
  | 'no-question';

const header = (mail: ParsedMail, name: string): string => {
  const value = mail.headers.get(name);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value);
  return String(value);
};

/** The sender's address as the From header names it, lower-cased ('' when there is none). */
export function senderOf(mail: ParsedMail): string {
  return (mail.from?.value[0]?.address ?? '').trim().toLowerCase();
}

/** The authserv-id an `Authentication-Results` value starts with (RFC 8601 2.2: after any comment), lower-cased. */
export function authservIdOf(value: string): string {
  const match = /^\s*(?:\([^)]*\)\s*)*"?([^\s;"()]+)/.exec(value);
  return match?.[1]?.toLowerCase() ?? '';
}

/**
 * Whether the mail's `Authentication-Results` leave its From standing. Anyone can write that header into their own
 * mail, so a verdict counts only from the mailbox's own server: the topmost header (the last added) that carries
 * the mailbox's authserv-id; its SPF, DKIM or DMARC failing with none passing is a forged From. A DMARC failure in
 * any header refuses too: writing one only stops the writer's own mail. Without the mailbox's authserv-id (or such
 * a header) that is all that is read.
 */
function authenticated(mail: ParsedMail, authservId: string): boolean {
  const results = mail.headerLines
    .filter((h) => h.key === 'authentication-results')
    .map((h) => h.line.slice(h.line.indexOf(':') + 1).toLowerCase());
  if (results.some((r) => /\bdmarc=fail\b/.test(r))) return false;
  const own = authservId ? results.find((r) => authservIdOf(r) === authservId) : undefined;
  if (!own || /\b(dmarc|dkim|spf)=pass\b/.test(own)) return true;
  return !/\b(dmarc|dkim|spf)=(fail|softfail|permerror)\b/.test(own);
}

/**
 * Decides whether the assistant answers a mail: never auto-replies (`Auto-Submitted` other than `no`,
 * `Precedence: bulk|list|junk|auto_reply`, `X-Autoreply`), bounces (`Return-Path: <>`, MAILER-DAEMON), mailing lists
 * (`List-Id`) or our own mails; only a sender of the allowed addresses whose From the mailbox's own server (by its
 * authserv-id) did not find forged. Returns null when the mail is to be answered.
 */
export function ignoreReason(
  mail: ParsedMail,
  mailbox: { ownAddresses: string[]; allowed: string[]; authservId: string },
): IgnoreReason | null {
  const sender = senderOf(mail);
  const autoSubmitted = header(mail, 'auto-submitted').trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return 'auto-reply';
  if (/^(bulk|list|junk|auto_reply)$/i.test(header(mail, 'precedence').trim())) return 'auto-reply';
  const has = (name: string) => mail.headerLines.some((h) => h.key === name);
  if (has('x-autoreply') || has('x-autorespond')) return 'auto-reply';
  const returnPath = mail.headerLines.find((h) => h.key === 'return-path')?.line ?? '';
  if (/:\s*<\s*>\s*$/.test(returnPath)) return 'bounce';
  if (/^(mailer-daemon|postmaster)@/i.test(sender) || !sender) return 'bounce';
  if (has('list-id') || has('list-unsubscribe')) return 'mailing-list';
  if (mailbox.ownAddresses.includes(sender)) return 'ourselves';
  if (!mailbox.allowed.includes(sender)) return 'not-allowed';
  if (!authenticated(mail, mailbox.authservId)) return 'unauthenticated';
  return null;
}

/**
 * The question of a mail: its text without the quoted conversation below it ("> " lines and what follows an
 * "On ... wrote:" line) and without the signature.
 */
export function questionOf(mail: ParsedMail): string {
  const lines = (mail.text ?? '').replace(/\r\n/g, '\n').split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    if (/^-- ?$/.test(line)) break;
    if (/^>/.test(line)) continue;
    if (
      /^(On|Am|Le|Il|W dniu|Em|El)\b.*(wrote|schrieb|écrit|scritto|napisał|escreveu|escribió):\s*$/i.test(
        line,
      )
    )
      break;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/** The thread a mail belongs to, oldest first, with its own Message-ID last. */
export function threadOf(mail: ParsedMail, messageId: string): string[] {
  const refs = mail.references ? (Array.isArray(mail.references) ? mail.references : [mail.references]) : [];
  const chain = refs.length > 0 ? refs : mail.inReplyTo ? [mail.inReplyTo] : [];
  return [...chain.filter((r) => r !== messageId), messageId];
}
