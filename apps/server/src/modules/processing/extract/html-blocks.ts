import { Parser } from 'htmlparser2';
import { type Block, normalizeSpace } from './blocks.ts';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'nav']);
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'blockquote',
  'pre',
  'dd',
  'dt',
  'figcaption',
  'caption',
  'br',
  'hr',
  'main',
  'header',
  'footer',
  'aside',
]);

/** A paragraph set wholly in bold, this short and not ending like a sentence, is a heading ("§ 1 Geltungsbereich"). */
const BOLD_HEADING_CHARS = 120;
const BOLD_TAGS = new Set(['strong', 'b']);

/**
 * Headings, paragraphs, list items and tables of an HTML document (also mammoth's HTML of a .docx), with tables
 * kept as rows of cells (and their caption) so that the chunker can keep them whole. A short paragraph wholly in
 * bold is a heading one level below the last real one (documents that mark their sections by bold text alone), and
 * the items of a numbered list carry their numbers.
 */
export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let skipDepth = 0;
  let text = '';
  let heading = 0;
  let inItem = 0;
  let table: string[][] | null = null;
  let row: string[] | null = null;
  let cell: string | null = null;
  let tableDepth = 0;
  let caption: string | null = null;
  let inCaption = false;
  /** Characters of the current block's text in bold and outside bold. */
  let bold = 0;
  let boldChars = 0;
  let plainChars = 0;
  let lastHeading = 0;
  const lists: Array<{ ordered: boolean; n: number }> = [];

  const flush = () => {
    const t = normalizeSpace(text);
    const allBold = boldChars > 0 && plainChars === 0;
    text = '';
    boldChars = 0;
    plainChars = 0;
    if (!t) return;
    if (heading) {
      lastHeading = heading;
      blocks.push({ kind: 'heading', level: heading, text: t });
    } else if (
      !inItem &&
      allBold &&
      t.length <= BOLD_HEADING_CHARS &&
      !/[.:;,!?]$/.test(t) &&
      /\p{L}/u.test(t)
    )
      blocks.push({ kind: 'heading', level: Math.min(6, lastHeading + 1), text: t });
    else blocks.push({ kind: inItem ? 'listItem' : 'paragraph', text: t });
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) {
          skipDepth++;
          return;
        }
        if (skipDepth) return;
        if (name === 'table') {
          tableDepth++;
          if (tableDepth === 1) {
            flush();
            table = [];
            caption = null;
          }
          return;
        }
        if (table && tableDepth === 1) {
          if (name === 'caption') {
            inCaption = true;
            caption = '';
          } else if (name === 'tr') row = [];
          else if ((name === 'td' || name === 'th') && row) cell = '';
          else if (name === 'br' && cell !== null) cell += ' ';
          return;
        }
        if (table) return;
        const level = /^h([1-6])$/.exec(name);
        if (level) {
          flush();
          heading = Number(level[1]);
        } else if (name === 'ol' || name === 'ul') {
          flush();
          lists.push({ ordered: name === 'ol', n: 0 });
        } else if (name === 'li') {
          flush();
          inItem++;
          const list = lists.at(-1);
          if (list?.ordered) text = `${++list.n}. `;
        } else if (BOLD_TAGS.has(name)) bold++;
        else if (BLOCK_TAGS.has(name)) flush();
      },
      ontext(data) {
        if (skipDepth) return;
        if (table) {
          if (inCaption && caption !== null) caption += data;
          else if (cell !== null) cell += data;
          return;
        }
        text += data;
        const letters = data.replace(/\s+/g, '').length;
        if (bold) boldChars += letters;
        else plainChars += letters;
      },
      onclosetag(name) {
        if (SKIP.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth) return;
        if (name === 'table') {
          tableDepth--;
          if (tableDepth === 0 && table) {
            const rows = (table as string[][]).filter((r) => r.some((c) => c));
            const title = caption === null ? '' : normalizeSpace(caption);
            if (rows.length) blocks.push({ kind: 'table', rows, ...(title ? { caption: title } : {}) });
            table = null;
          }
          return;
        }
        if (table && tableDepth === 1) {
          if (name === 'caption') inCaption = false;
          else if ((name === 'td' || name === 'th') && row && cell !== null) {
            row.push(normalizeSpace(cell));
            cell = null;
          } else if (name === 'tr' && row) {
            (table as string[][]).push(row);
            row = null;
          }
          return;
        }
        if (table) return;
        if (/^h[1-6]$/.test(name)) {
          flush();
          heading = 0;
        } else if (name === 'li') {
          flush();
          inItem = Math.max(0, inItem - 1);
        } else if (name === 'ol' || name === 'ul') {
          flush();
          lists.pop();
        } else if (BOLD_TAGS.has(name)) bold = Math.max(0, bold - 1);
        else if (BLOCK_TAGS.has(name)) flush();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}
