import type { Block } from './extract/blocks.ts';

export interface Chunk {
  text: string;
  headingPath: string[];
  page: number | null;
}

export interface ChunkOptions {
  /** A chunk grows up to about this many characters... */
  targetChars: number;
  /** ...and is cut (at a sentence, else a word) above this many. */
  maxChars: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { targetChars: 900, maxChars: 1500 };

const tableLines = (rows: string[][]) => rows.map((r) => r.join(' | '));

/** Splits a long text at sentence ends (else at spaces) into pieces of at most `max` characters. */
export function splitLongText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const sentences = text.match(/[^.!?。؟]+(?:[.!?。؟]+["'»“”)\]]*\s*|$)/g) ?? [text];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > max) {
      pieces.push(current.trim());
      current = '';
    }
    if (sentence.length > max) {
      for (const word of sentence.split(/(\s+)/)) {
        if (current.length + word.length > max && current.trim()) {
          pieces.push(current.trim());
          current = '';
        }
        current += word.length > max ? word.slice(0, max) : word;
      }
    } else current += sentence;
  }
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}

/**
 * Cuts a document's blocks into passages that follow its structure: a heading starts a new passage and its path
 * travels with every passage below it; paragraphs and list items gather up to the target size; a table stays whole
 * when it fits, and is otherwise cut between rows with its header row repeated; each passage keeps its first page.
 */
export function chunkBlocks(blocks: Block[], options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const chunks: Chunk[] = [];
  const path: Array<{ level: number; text: string }> = [];
  let parts: string[] = [];
  let size = 0;
  let page: number | null = null;

  const headingPath = () => path.map((h) => h.text);
  const flush = () => {
    if (parts.length) chunks.push({ text: parts.join('\n'), headingPath: headingPath(), page });
    parts = [];
    size = 0;
    page = null;
  };
  const add = (text: string, blockPage: number | undefined) => {
    if (size > 0 && size + text.length + 1 > options.targetChars) flush();
    if (parts.length === 0) page = blockPage ?? null;
    parts.push(text);
    size += text.length + 1;
  };

  for (const block of blocks) {
    if (block.kind === 'heading') {
      flush();
      while (path.length && path.at(-1)!.level >= block.level) path.pop();
      path.push({ level: block.level, text: block.text.slice(0, 200) });
      continue;
    }
    if (block.kind === 'table') {
      const lines = tableLines(block.rows);
      const whole = lines.join('\n');
      if (whole.length <= options.maxChars) {
        if (size + whole.length > options.maxChars) flush();
        add(whole, block.page);
        continue;
      }
      flush();
      const [header, ...body] = lines;
      let group: string[] = [];
      let groupSize = header!.length;
      for (const line of body) {
        const cut =
          line.length > options.maxChars - header!.length
            ? line.slice(0, options.maxChars - header!.length - 1)
            : line;
        if (group.length && groupSize + cut.length + 1 > options.maxChars) {
          chunks.push({
            text: [header, ...group].join('\n'),
            headingPath: headingPath(),
            page: block.page ?? null,
          });
          group = [];
          groupSize = header!.length;
        }
        group.push(cut);
        groupSize += cut.length + 1;
      }
      chunks.push({
        text: [header, ...group].join('\n'),
        headingPath: headingPath(),
        page: block.page ?? null,
      });
      continue;
    }
    const text = block.kind === 'listItem' ? `• ${block.text}` : block.text;
    if (text.length > options.maxChars) {
      for (const piece of splitLongText(text, options.maxChars)) add(piece, block.page);
    } else add(text, block.page);
    // A page change inside a passage keeps the first page; a new page starts a new passage once it is half full.
    if (block.page !== undefined && page !== null && block.page !== page && size > options.targetChars / 2)
      flush();
  }
  flush();
  // A document of headings only still yields passages (its headings).
  if (chunks.length === 0 && path.length)
    chunks.push({ text: headingPath().join('\n'), headingPath: [], page: null });
  return chunks;
}
