import type { FileFailureCode } from '@werkwissen/shared';

/** The structure a parser finds in a document, in reading order. */
export type Block =
  | { kind: 'heading'; level: number; text: string; page?: number }
  | { kind: 'paragraph' | 'listItem'; text: string; page?: number }
  | {
      kind: 'table';
      rows: string[][];
      page?: number;
      /** The table's title or the text that introduces it (a sheet's title rows), travelling with every row. */
      caption?: string;
      /** Whether the first row names the columns; unknown (absent) counts as yes. */
      header?: boolean;
    };

export interface Extracted {
  blocks: Block[];
  pageCount: number | null;
  /** The pages whose text came from OCR and the mean confidence of its words (0-100); absent without OCR. */
  ocr?: { pages: number[]; meanConfidence: number };
}

/** The error detail of FILE_NO_TEXT when the text would have needed OCR, which is not installed. */
export const OCR_NOT_INSTALLED = 'OCR_NOT_INSTALLED';

/** A document that cannot be read, with the reason code shown to the user. */
export class ExtractionError extends Error {
  readonly code: FileFailureCode;
  constructor(code: FileFailureCode, detail?: string) {
    super(detail ?? code);
    this.code = code;
  }
}

/**
 * Collapses white space and drops what PostgreSQL text cannot hold or JSON cannot carry: NUL characters and
 * unpaired surrogates (both occur in real PDFs' text layers).
 */
export const normalizeSpace = (s: string) =>
  s
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Total characters of text in the blocks (to tell an empty or image-only document). */
export function textLength(blocks: Block[]): number {
  let n = 0;
  for (const b of blocks) {
    if (b.kind === 'table') for (const row of b.rows) for (const cell of row) n += cell.trim().length;
    else n += b.text.trim().length;
  }
  return n;
}
