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

/**
 * Headings, paragraphs, list items and tables of an HTML document (also mammoth's HTML of a .docx), with tables
 * kept as rows of cells so that the chunker can keep them whole.
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

  const flush = () => {
    const t = normalizeSpace(text);
    text = '';
    if (!t) return;
    if (heading) blocks.push({ kind: 'heading', level: heading, text: t });
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
          }
          return;
        }
        if (table && tableDepth === 1) {
          if (name === 'tr') row = [];
          else if ((name === 'td' || name === 'th') && row) cell = '';
          else if (name === 'br' && cell !== null) cell += ' ';
          return;
        }
        if (table) return;
        const level = /^h([1-6])$/.exec(name);
        if (level) {
          flush();
          heading = Number(level[1]);
        } else if (name === 'li') {
          flush();
          inItem++;
        } else if (BLOCK_TAGS.has(name)) flush();
      },
      ontext(data) {
        if (skipDepth) return;
        if (table) {
          if (cell !== null) cell += data;
          return;
        }
        text += data;
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
            if (rows.length) blocks.push({ kind: 'table', rows });
            table = null;
          }
          return;
        }
        if (table && tableDepth === 1) {
          if ((name === 'td' || name === 'th') && row && cell !== null) {
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
        } else if (BLOCK_TAGS.has(name)) flush();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}
