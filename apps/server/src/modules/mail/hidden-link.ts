import type { AppContext } from '../../app-context.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { mailsWithUnsealedToken, sealMailLink } from './email-outbox.queries.ts';

/**
 * What the outbox stores in place of a mailed single-use token (verification, password reset, invitation, e-mail
 * change): whoever reads the e-mail log sees the link masked. The token itself is sealed beside the mail
 * (`link_sealed`), and only the send job, and an Administrator's deliberate reveal, open it. The mask survives HTML
 * escaping unchanged, so one replacement restores both parts of the mail.
 */
export const MASKED_TOKEN = '••••••••';

/** The kinds whose link carries a single-use token (those written before the tokens were sealed are sealed at start). */
const LINK_KINDS = ['verifyEmail', 'passwordReset', 'setPassword', 'changeEmail'];

/** A token of `randomToken()` (32 bytes, base64url) as it stands in a mail's link. */
const TOKEN_IN_LINK = /([?&]token=)([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/g;

const box = (ctx: AppContext) => new SecretBox(ctx.config.secrets.encryptionKey);

/** The action of a mail whose link carries a single-use token: `writeToOutbox` masks it and seals the token. */
export function singleUseLink(path: string, token: string): { actionPath: string; linkToken: string } {
  return { actionPath: `${path}?token=${token}`, linkToken: token };
}

export function sealToken(ctx: AppContext, token: string): string {
  return box(ctx).seal(token);
}

interface MailParts {
  subject: string;
  text: string;
  html: string;
  linkSealed: string | null;
}

/** The mail as it goes out: the sealed token back in place of the mask (a mail without one is as stored). */
export function withRealLink(
  ctx: AppContext,
  mail: MailParts,
): { subject: string; text: string; html: string } {
  if (!mail.linkSealed) return { subject: mail.subject, text: mail.text, html: mail.html };
  const token = box(ctx).open(mail.linkSealed);
  const put = (s: string) => s.replaceAll(MASKED_TOKEN, token);
  return { subject: put(mail.subject), text: put(mail.text), html: put(mail.html) };
}

/** The address in a mail's text that carries the mask (it ends with it: `singleUseLink` puts the token last). */
const MASKED_LINK = new RegExp(String.raw`https?://\S*?token=${MASKED_TOKEN}`);

/** The link a mail's recipient got, for an Administrator's reveal: the text part's address that carries the mask. */
export function realLink(ctx: AppContext, mail: MailParts): string | null {
  if (!mail.linkSealed) return null;
  const masked = MASKED_LINK.exec(mail.text)?.[0];
  return masked ? masked.replace(MASKED_TOKEN, box(ctx).open(mail.linkSealed)) : null;
}

/**
 * Seals the tokens of mails written before they were sealed (an upgrade): each such mail gets its token sealed and
 * its stored text and HTML masked, so the log stops showing live links while the send job and a reveal still work.
 * Safe beside another process doing the same (a mail is updated only while it has no sealed token).
 */
export async function sealLegacyLinks(ctx: AppContext): Promise<number> {
  const rows = await mailsWithUnsealedToken(ctx.db, LINK_KINDS);
  let sealed = 0;
  for (const row of rows) {
    const token = [...row.text.matchAll(TOKEN_IN_LINK)][0]?.[2];
    if (!token) continue;
    const mask = (s: string) => s.replaceAll(token, MASKED_TOKEN);
    const done = await sealMailLink(ctx.db, row.id, {
      subject: mask(row.subject),
      text: mask(row.text),
      html: mask(row.html),
      linkSealed: sealToken(ctx, token),
    });
    if (done) sealed += 1;
  }
  return sealed;
}
