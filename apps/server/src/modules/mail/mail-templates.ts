import type { Language } from '@werkwissen/shared';
import { translatorFor } from '../../i18n/translator.ts';

export const MAIL_TEMPLATES = [
  'verifyEmail',
  'passwordReset',
  'setPassword',
  'welcome',
  'uploadFinished',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export interface MailVars {
  name: string;
  appTitle: string;
  actionUrl: string;
  /** Extra placeholders of the template's texts (e.g. the division of an upload). */
  values?: Record<string, string>;
  /** A list shown below the body (e.g. each uploaded file's outcome). */
  lines?: string[];
}

/** Templates that inform rather than ask for an action: no expiry and no "if you did not request this". */
const INFORMATIONAL: readonly MailTemplate[] = ['welcome', 'uploadFinished'];

/**
 * Templates that forms open to anyone send (sign-up, password reset): the recipient may never have chosen the name
 * typed into the form, so it stays out of the subject and the first line.
 */
const FROM_PUBLIC_FORMS: readonly MailTemplate[] = ['verifyEmail', 'passwordReset'];

/** Templates whose body names the company; without a company name they say `bodyWithoutCompany` instead. */
const NAMES_COMPANY: readonly MailTemplate[] = ['setPassword'];

/**
 * Templates with a closing line of their own instead of "if you did not request this": nobody requests an
 * invitation.
 */
const OWN_CLOSING: readonly MailTemplate[] = ['setPassword'];

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Renders one of the localized templates in the recipient's language, as plain text and as simple HTML. */
export function renderMail(
  template: MailTemplate,
  lang: Language,
  vars: MailVars,
  brandColor: string,
): RenderedMail {
  const t = translatorFor(lang);
  const tv = { ...vars.values, name: vars.name, appTitle: vars.appTitle };
  const informational = INFORMATIONAL.includes(template);
  const lines = vars.lines ?? [];
  const subject = t(`mail.${template}.subject`, tv);
  const greeting = FROM_PUBLIC_FORMS.includes(template)
    ? t('mail.greetingPlain', tv)
    : t('mail.greeting', tv);
  const bodyKey = NAMES_COMPANY.includes(template) && !vars.values?.company ? 'bodyWithoutCompany' : 'body';
  const body = t(`mail.${template}.${bodyKey}`, tv);
  const action = t(`mail.${template}.action`, tv);
  const expiryKey = `mail.${template}.expiry`;
  const expiry = informational ? '' : t(expiryKey, tv);
  const ignore = informational
    ? ''
    : t(OWN_CLOSING.includes(template) ? `mail.${template}.ignore` : 'mail.ignore', tv);
  const signature = t('mail.signature', tv);
  const fallback = t('mail.linkFallback', tv);

  const text = [
    greeting,
    '',
    body,
    ...(lines.length ? ['', ...lines.map((l) => `- ${l}`)] : []),
    '',
    `${action}: ${vars.actionUrl}`,
    expiry,
    '',
    ignore,
    signature,
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n')
    .trim();

  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const p = (s: string) => (s ? `<p style="margin:0 0 16px">${escapeHtml(s)}</p>` : '');
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5fa;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#2f2b3d">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<h1 style="font-size:20px;margin:0 0 24px">${escapeHtml(vars.appTitle)}</h1>
${p(greeting)}${p(body)}${lines.length ? `<ul style="margin:0 0 16px;padding-inline-start:20px">${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : ''}
<p style="margin:24px 0"><a href="${escapeHtml(vars.actionUrl)}" style="display:inline-block;background:${brandColor};color:#1f1f1f;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${escapeHtml(action)}</a></p>
${p(expiry)}
<p style="margin:0 0 16px;font-size:13px;color:#6d6b77">${escapeHtml(fallback)}<br><span dir="ltr">${escapeHtml(vars.actionUrl)}</span></p>
${p(ignore)}${p(signature)}
</div></body></html>`;
  return { subject, text, html };
}
