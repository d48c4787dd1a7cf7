import iconv from 'iconv-lite';
import { Tokenize } from 'rtf-stream-parser';
import { type Block, ExtractionError, normalizeSpace } from './blocks.ts';

/** A token of rtf-stream-parser's tokenizer. */
interface Token {
  type: number;
  word?: string;
  param?: number;
  data?: Buffer;
}
const GROUP_START = 0;
const GROUP_END = 1;
const CONTROL = 2;

/** Groups whose content is not the document's text (tables of fonts and styles, metadata, pictures, field codes). */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'fldinst',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'generator',
  'filetbl',
  'revtbl',
  'nonshppict',
  'shpinst',
  'datafield',
  'pgdsctbl',
  'mmathPr',
  'listtext',
]);
/** A font's character set (`\fcharsetN`) as a code page. */
const CHARSET_CODEPAGE: Record<number, number> = {
  77: 10000,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};
const SYMBOLS: Record<string, string> = {
  '\\': '\\',
  '{': '{',
  '}': '}',
  '~': '\u00a0',
  _: '\u2011',
  '-': '',
  tab: ' ',
  emdash: '—',
  endash: '–',
  bullet: '•',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
};

interface GroupState {
  skip: boolean;
  uc: number;
  codepage: number;
  /** Inside the font table: the font being described. */
  font?: number;
}

/** Text in a Windows code page (one iconv-lite does not know reads as Windows-1252). */
const decode = (data: Buffer, codepage: number) =>
  iconv.decode(data, iconv.encodingExists(`cp${codepage}`) ? `cp${codepage}` : 'cp1252');

const tokenize = (buffer: Buffer) =>
  new Promise<Token[]>((resolve, reject) => {
    const tokens: Token[] = [];
    const tokenizer = new Tokenize();
    tokenizer.on('data', (token: Token) => tokens.push(token));
    tokenizer.on('error', (error: Error) => reject(new ExtractionError('FILE_CORRUPT', error.message)));
    tokenizer.on('end', () => resolve(tokens));
    tokenizer.end(buffer);
  });

/**
 * An .rtf from rtf-stream-parser's tokens: text in the document's code pages (`\ansicpg`, each font's charset) and
 * Unicode escapes (with their `\uc` fallbacks skipped), paragraphs, headings by `\outlinelevel`, and tables by
 * `\cell` and `\row`; font tables, metadata, pictures and field codes left out.
 */
export async function rtfToBlocks(buffer: Buffer): Promise<Block[]> {
  const tokens = await tokenize(buffer);
  if (tokens[0]?.type !== GROUP_START || tokens[1]?.word !== 'rtf')
    throw new ExtractionError('FILE_CORRUPT', 'not RTF');
  const blocks: Block[] = [];
  const fontCodepage = new Map<number, number>();
  let defaultCodepage = 1252;
  let state: GroupState = { skip: false, uc: 1, codepage: defaultCodepage };
  const stack: GroupState[] = [];
  let text = '';
  let bytes: number[] = [];
  let fallback = 0;
  let outline: number | null = null;
  let inTable = false;
  let row: string[] = [];
  let table: string[][] = [];

  const flushBytes = () => {
    if (bytes.length) text += decode(Buffer.from(bytes), state.codepage);
    bytes = [];
  };
  const take = () => {
    flushBytes();
    const t = normalizeSpace(text);
    text = '';
    return t;
  };
  const endTable = () => {
    if (table.length) blocks.push({ kind: 'table', rows: table });
    table = [];
  };
  const endParagraph = () => {
    const t = take();
    if (inTable) {
      text = t ? `${t} ` : '';
      return;
    }
    endTable();
    if (!t) return;
    blocks.push(
      outline === null ? { kind: 'paragraph', text: t } : { kind: 'heading', level: outline + 1, text: t },
    );
  };

  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === GROUP_START) {
      flushBytes();
      stack.push(state);
      state = { ...state, font: undefined };
      const next = tokens[i + 1];
      if (next?.word === '*' || (next?.word && SKIPPED_DESTINATIONS.has(next.word))) state.skip = true;
      continue;
    }
    if (token.type === GROUP_END) {
      flushBytes();
      state = stack.pop() ?? state;
      continue;
    }
    const word = token.word;
    if (token.type === CONTROL && word === "'") {
      if (fallback > 0) fallback--;
      else if (!state.skip) bytes.push(...(token.data ?? []));
      continue;
    }
    if (token.type !== CONTROL) {
      let data = token.data ?? Buffer.alloc(0);
      if (fallback > 0) {
        const skipped = Math.min(fallback, data.length);
        data = data.subarray(skipped);
        fallback -= skipped;
      }
      if (!state.skip && data.length) {
        flushBytes();
        text += decode(data, state.codepage);
      }
      continue;
    }
    fallback = 0;
    const param = token.param;
    switch (word) {
      case 'ansicpg':
        defaultCodepage = param ?? 1252;
        state.codepage = defaultCodepage;
        break;
      case 'f':
        if (state.skip) state.font = param;
        else state.codepage = fontCodepage.get(param ?? 0) ?? defaultCodepage;
        break;
      case 'fcharset':
        if (state.font !== undefined)
          fontCodepage.set(state.font, CHARSET_CODEPAGE[param ?? 0] ?? defaultCodepage);
        break;
      case 'uc':
        state.uc = param ?? 1;
        break;
      case 'u':
        if (!state.skip) {
          flushBytes();
          text += String.fromCharCode((param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0));
        }
        fallback = state.uc;
        break;
      case 'par':
      case 'sect':
      case 'page':
        if (!state.skip) endParagraph();
        break;
      case 'line':
        if (!state.skip) text += ' ';
        break;
      case 'pard':
        outline = null;
        inTable = false;
        break;
      case 'outlinelevel':
        outline = Math.min(5, param ?? 0);
        break;
      case 'intbl':
        inTable = true;
        break;
      case 'cell':
        if (!state.skip) row.push(take());
        break;
      case 'row':
        if (row.some((c) => c)) table.push(row);
        row = [];
        break;
      default:
        if (!state.skip && word && SYMBOLS[word] !== undefined) {
          flushBytes();
          text += SYMBOLS[word];
        }
    }
  }
  inTable = false;
  endParagraph();
  return blocks;
}
