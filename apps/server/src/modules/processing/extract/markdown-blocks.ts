import { marked, type Token, type Tokens } from 'marked';
import { type Block, normalizeSpace } from './blocks.ts';

const plain = (s: string) =>
  normalizeSpace(
    s
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[*_`~]+/g, ''),
  );

/** Markdown headings, paragraphs, list items, tables and code blocks, from marked's lexer. */
export function markdownToBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading':
          blocks.push({ kind: 'heading', level: (token as Tokens.Heading).depth, text: plain(token.text) });
          break;
        case 'paragraph':
        case 'code':
        case 'text':
          if (plain(token.text)) blocks.push({ kind: 'paragraph', text: plain(token.text) });
          break;
        case 'list':
          for (const item of (token as Tokens.List).items) {
            const t = plain(item.text);
            if (t) blocks.push({ kind: 'listItem', text: t });
          }
          break;
        case 'table': {
          const t = token as Tokens.Table;
          blocks.push({
            kind: 'table',
            rows: [t.header.map((c) => plain(c.text)), ...t.rows.map((r) => r.map((c) => plain(c.text)))],
          });
          break;
        }
        case 'blockquote':
          walk((token as Tokens.Blockquote).tokens);
          break;
        case 'html':
          if (plain(token.text.replace(/<[^>]*>/g, ' ')))
            blocks.push({ kind: 'paragraph', text: plain(token.text.replace(/<[^>]*>/g, ' ')) });
          break;
        default:
          break;
      }
    }
  };
  walk(marked.lexer(markdown));
  return blocks;
}
