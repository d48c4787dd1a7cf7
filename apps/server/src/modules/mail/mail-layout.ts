import {
  BUTTON_LINE,
  fillPlaceholders,
  type Language,
  RTL_LANGUAGES,
  type TemplateText,
  type TemplateVariable,
} from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';

/** The frame's parts: the product's name and colour, and the company's logo (absolute address) when it has one. */
export interface MailLayout {
  appTitle: string;
  brandColor: string;
  logo?: { url: string; alt: string } | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The values of a mail's variables: text, or lines for a list variable. */
export type MailValues = Record<string, string | string[]>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const LIST_LINE = /^\s*\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}\s*$/;

/**
 * Renders a template (`mail-template-text.ts`) as the mail goes out: the text part is the body as written with the
 * values filled in; the HTML part puts its paragraphs, button and lists into the one layout. Only the variables
 * the kind provides are filled (anything else is empty), and in HTML every text and value is escaped, so a name
 * typed into a form cannot add markup.
 */
export function renderTemplate(
  template: TemplateText,
  lang: Language,
  variables: readonly TemplateVariable[],
  values: MailValues,
  layout: MailLayout,
): RenderedMail {
  const allowed = new Set(variables.map((v) => v.name));
  const raw = (name: string) => {
    const value = allowed.has(name) ? values[name] : undefined;
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const listOf = (line: string) => {
    const name = LIST_LINE.exec(line)?.[1];
    const value = name && allowed.has(name) ? values[name] : undefined;
    return Array.isArray(value) ? value : null;
  };
  const actionUrl = raw('actionUrl');
  const subject = fillPlaceholders(template.subject, raw).replace(/\s+/g, ' ').trim();
  const lines = template.body.replace(/\r\n?/g, '\n').split('\n');

  const textLines = lines.flatMap((line) => {
    const button = BUTTON_LINE.exec(line);
    if (button) return [`${fillPlaceholders(button[1]!, raw)}: ${actionUrl}`];
    const list = listOf(line);
    if (list) return list.map((item) => `- ${item}`);
    return [fillPlaceholders(line, raw)];
  });
  const text = textLines
    .filter((line, i, all) => line.trim() !== '' || all[i - 1]?.trim() !== '')
    .join('\n')
    .trim();

  const html = htmlLayout({
    lang,
    subject,
    appTitle: layout.appTitle,
    logo: layout.logo ?? null,
    body: htmlBody(lines, raw, listOf, actionUrl, layout.brandColor, lang),
  });
  return { subject, text, html };
}

function htmlBody(
  lines: string[],
  raw: (name: string) => string,
  listOf: (line: string) => string[] | null,
  actionUrl: string,
  brandColor: string,
  lang: Language,
): string {
  const escaped = (line: string) => fillPlaceholders(escapeHtml(line), (name) => escapeHtml(raw(name)));
  const blocks: string[] = [];
  let paragraph: string[] = [];
  let buttons = 0;
  const endParagraph = () => {
    if (paragraph.length) blocks.push(`<p style="margin:0 0 16px">${paragraph.join('<br>')}</p>`);
    paragraph = [];
  };
  for (const line of lines) {
    const button = BUTTON_LINE.exec(line);
    const list = button ? null : listOf(line);
    if (line.trim() === '') endParagraph();
    else if (button) {
      endParagraph();
      blocks.push(
        `<p style="margin:24px 0"><a href="${escapeHtml(actionUrl)}" style="display:inline-block;background:${brandColor};color:#1f1f1f;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${escaped(button[1]!)}</a></p>`,
      );
      if (buttons++ === 0) {
        blocks.push(
          `<p style="margin:0 0 16px;font-size:13px;color:#6d6b77">${escapeHtml(translate(lang, 'mail.linkFallback'))}<br><span dir="ltr">${escapeHtml(actionUrl)}</span></p>`,
        );
      }
    } else if (list) {
      endParagraph();
      if (list.length)
        blocks.push(
          `<ul style="margin:0 0 16px;padding-inline-start:20px">${list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
        );
    } else paragraph.push(escaped(line));
  }
  endParagraph();
  return blocks.join('\n');
}

/**
 * A message written by a user (a company writing to its customer) in the same frame: its paragraphs as typed, every
 * character escaped, no button; the heading is the company's logo, else its name.
 */
export function renderMessage(
  lang: Language,
  message: { subject: string; text: string },
  layout: Omit<MailLayout, 'brandColor'>,
): RenderedMail {
  const subject = message.subject.replace(/\s+/g, ' ').trim();
  const text = message.text.replace(/\r\n?/g, '\n').trim();
  const body = text
    .split(/\n\s*\n/)
    .map((p) => `<p style="margin:0 0 16px">${p.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('\n');
  const html = htmlLayout({ lang, subject, appTitle: layout.appTitle, logo: layout.logo ?? null, body });
  return { subject, text, html };
}

/** The one frame of every mail: the company's logo, else the product's name, as heading; the body in a card. */
function htmlLayout(parts: {
  lang: Language;
  subject: string;
  appTitle: string;
  logo: MailLayout['logo'];
  body: string;
}): string {
  const heading = parts.logo
    ? `<p style="margin:0 0 24px"><img src="${escapeHtml(parts.logo.url)}" width="100" alt="${escapeHtml(parts.logo.alt)}" style="display:block;border:0"></p>`
    : `<h1 style="font-size:20px;margin:0 0 24px">${escapeHtml(parts.appTitle)}</h1>`;
  const dir = RTL_LANGUAGES.includes(parts.lang) ? 'rtl' : 'ltr';
  return `<!doctype html>
<html lang="${parts.lang}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5fa;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#2f2b3d">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
${heading}
${parts.body}
</div></body></html>`;
}
