import type { ChatMessage, Language } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';

/** WhatsApp's limit for the body of one text message, in characters. */
export const WHATSAPP_TEXT_MAX = 4096;

/** Where a sentence ends: after its punctuation (and closing quotes or brackets), before the next one's space. */
const SENTENCE_END = /(?<=[.!?…。！？][)"'»”’]*)\s+/u;

/** Cuts a piece longer than the limit at its last space or line break before it, else at the limit itself. */
function cutLong(piece: string, max: number): string[] {
  const parts: string[] = [];
  let rest = piece;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const at = space > max / 2 ? space : max;
    parts.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

/**
 * Splits a reply into WhatsApp messages of at most `max` characters, each ending on a sentence boundary (a paragraph
 * break first, then a sentence's end; a single sentence longer than a message is cut at a space).
 */
export function splitMessage(text: string, max = WHATSAPP_TEXT_MAX): string[] {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed ? [trimmed] : [];
  const sentences = trimmed
    .split(/(\n{2,})/)
    .flatMap((block) =>
      /^\n+$/.test(block)
        ? [block]
        : block.split(SENTENCE_END).flatMap((s, i, all) => (i < all.length - 1 ? [s, ' '] : [s])),
    )
    .flatMap((piece) => (piece.length > max ? cutLong(piece, max) : [piece]));
  const parts: string[] = [];
  let current = '';
  for (const piece of sentences) {
    if ((current + piece).length > max) {
      if (current.trim()) parts.push(current.trim());
      current = piece.trimStart();
    } else {
      current += piece;
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** A cited source as a short reference: `[2] Manual.pdf, p. 14`. */
function sourceLine(lang: Language, c: ChatMessage['citations'][number]): string {
  const page = c.page ? `, ${translate(lang, 'whatsapp.reply.page', { page: c.page })}` : '';
  return `[${c.n}] ${c.fileName}${page}`;
}

/**
 * The reply to a question as WhatsApp text: the transcript of a voice note quoted first, the answer, its sources as
 * short file and page references, and the link that opens the conversation in the web app.
 */
export function replyText(
  lang: Language,
  answer: Pick<ChatMessage, 'content' | 'citations'>,
  link: string,
  transcript?: string,
): string {
  const blocks: string[] = [];
  if (transcript) blocks.push(translate(lang, 'whatsapp.reply.transcript', { text: transcript }));
  blocks.push(answer.content.trim() || translate(lang, 'whatsapp.reply.noAnswer'));
  if (answer.citations.length > 0) {
    blocks.push(
      [translate(lang, 'whatsapp.reply.sources'), ...answer.citations.map((c) => sourceLine(lang, c))].join(
        '\n',
      ),
    );
  }
  blocks.push(translate(lang, 'whatsapp.reply.openInApp', { url: link }));
  return blocks.join('\n\n');
}
