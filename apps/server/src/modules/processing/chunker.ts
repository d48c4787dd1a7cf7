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

/**
 * A table row as a passage line: its cells joined by " | " (the answerer's units and the chat's quotes read rows by
 * this), or a row of one filled cell (a section row: "Lohn und Fahrtkosten", "Wartung") as that cell alone.
 */
export const rowLine = (row: string[]) => {
  const filled = row.filter((cell) => cell);
  return filled.length === 1 ? filled[0]! : row.join(' | ');
};
/** A list item that carries its own number ("1. ", "a) "): it is written as it is, other items after "• ". */
export const NUMBERED = /^(\d{1,2}|[a-z])[.)]\s/u;

const isSectionRow = (row: string[]) => row.filter((cell) => cell).length === 1;

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
 * travels with every passage below it; paragraphs and list items gather up to the target size, and a list (numbered
 * steps) that fits the maximum stays in one passage with the line that introduces it; a table stays whole when it
 * fits, and is otherwise cut between rows with its caption, its header row and the current section row repeated;
 * each passage keeps its first page.
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
  /** While a list that fits is being added: it may grow the passage up to maxChars. */
  let listRoom = 0;
  const add = (text: string, blockPage: number | undefined) => {
    const limit = listRoom > 0 ? options.maxChars : options.targetChars;
    if (size > 0 && size + text.length + 1 > limit) flush();
    if (parts.length === 0) page = blockPage ?? null;
    parts.push(text);
    size += text.length + 1;
  };

  for (const [index, block] of blocks.entries()) {
    if (block.kind === 'heading') {
      flush();
      while (path.length && path.at(-1)!.level >= block.level) path.pop();
      path.push({ level: block.level, text: block.text.slice(0, 200) });
      continue;
    }
    if (block.kind === 'table') {
      tableChunks(
        block,
        options,
        (text) => add(text, block.page),
        flush,
        (text) => chunks.push({ text, headingPath: headingPath(), page: block.page ?? null }),
      );
      continue;
    }
    if (block.kind === 'listItem' && blocks[index - 1]?.kind !== 'listItem') {
      // A list (numbered steps, a checklist) stays together with the sentence that introduces it when it fits.
      let length = 0;
      for (let j = index; j < blocks.length && blocks[j]!.kind === 'listItem'; j++)
        length += (blocks[j] as { text: string }).text.length + 3;
      if (size > 0 && size + length > options.targetChars && length <= options.maxChars) {
        const intro = parts.at(-1)?.endsWith(':') ? parts.pop() : undefined;
        if (intro !== undefined) size -= intro.length + 1;
        flush();
        if (intro !== undefined) add(intro, block.page);
      }
      listRoom = length <= options.maxChars ? length : 0;
    } else if (block.kind !== 'listItem') listRoom = 0;
    const text = block.kind === 'listItem' && !NUMBERED.test(block.text) ? `• ${block.text}` : block.text;
    if (text.length > options.maxChars) {
      for (const piece of splitLongText(text, options.maxChars)) add(piece, block.page);
    } else add(text, block.page);
    // A page change inside a passage keeps the first page; a new page starts a new passage once it is half full.
    if (
      listRoom === 0 &&
      block.page !== undefined &&
      page !== null &&
      block.page !== page &&
      size > options.targetChars / 2
    )
      flush();
  }
  flush();
  // A document of headings only still yields passages (its headings).
  if (chunks.length === 0 && path.length)
    chunks.push({ text: headingPath().join('\n'), headingPath: [], page: null });
  return chunks;
}

/**
 * A table's passage text: its caption, its header row, then its rows (see `rowLine`). Whole when it fits (added to
 * the current passage), else cut between rows into passages of their own, each starting with the caption, the header
 * row and the section row the cut fell under.
 */
function tableChunks(
  table: Extract<Block, { kind: 'table' }>,
  options: ChunkOptions,
  addWhole: (text: string) => void,
  flush: () => void,
  push: (text: string) => void,
): void {
  const header = table.header === false ? null : (table.rows[0] ?? null);
  const head = [...(table.caption ? [table.caption] : []), ...(header ? [rowLine(header)] : [])];
  const body = header ? table.rows.slice(1) : table.rows;
  const whole = [...head, ...body.map(rowLine)].join('\n');
  if (whole.length <= options.maxChars) {
    addWhole(whole);
    return;
  }
  flush();
  const headSize = head.reduce((n, line) => n + line.length + 1, 0);
  let section: string | null = null;
  let group: string[] = [];
  let groupSize = headSize;
  const room = Math.max(80, options.maxChars - headSize);
  const emit = () => {
    if (group.length) push([...head, ...group].join('\n'));
    group = [];
    groupSize = headSize;
  };
  for (const row of body) {
    const line = rowLine(row);
    const cut = line.length > room ? line.slice(0, room - 1) : line;
    if (group.length && groupSize + cut.length + 1 > options.maxChars) {
      emit();
      if (section !== null && !isSectionRow(row)) {
        group.push(section);
        groupSize += section.length + 1;
      }
    }
    if (isSectionRow(row)) section = cut;
    group.push(cut);
    groupSize += cut.length + 1;
  }
  emit();
}
