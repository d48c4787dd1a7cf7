import { readFile } from 'node:fs/promises';
import type { FileKind } from '@werkwissen/shared';
import { type Extracted, ExtractionError, textLength } from './blocks.ts';
import { decodeText } from './decode-text.ts';
import { docxToBlocks } from './docx-blocks.ts';
import { htmlToBlocks } from './html-blocks.ts';
import { markdownToBlocks } from './markdown-blocks.ts';
import { pdfToBlocks } from './pdf-blocks.ts';
import { csvToBlocks, plainTextToBlocks } from './text-blocks.ts';

/** Reads a stored file into structured blocks, or throws an ExtractionError with the reason. */
export async function extractDocument(filePath: string, kind: FileKind): Promise<Extracted> {
  const buffer = await readFile(filePath);
  if (buffer.length === 0) throw new ExtractionError('FILE_EMPTY');
  let result: Extracted;
  switch (kind) {
    case 'pdf': {
      const { blocks, pageCount } = await pdfToBlocks(buffer);
      result = { blocks, pageCount };
      break;
    }
    case 'docx':
      result = { blocks: await docxToBlocks(buffer), pageCount: null };
      break;
    case 'html':
      result = { blocks: htmlToBlocks(decodeText(buffer)), pageCount: null };
      break;
    case 'md':
      result = { blocks: markdownToBlocks(decodeText(buffer)), pageCount: null };
      break;
    case 'csv':
      result = { blocks: csvToBlocks(decodeText(buffer)), pageCount: null };
      break;
    case 'txt':
      result = { blocks: plainTextToBlocks(decodeText(buffer)), pageCount: null };
      break;
  }
  const chars = textLength(result.blocks);
  // A scan may carry a few characters (a page number, a stamp) but no readable text layer.
  if (kind === 'pdf' && chars < 20) throw new ExtractionError('FILE_NO_TEXT');
  if (chars === 0) throw new ExtractionError('FILE_EMPTY');
  return result;
}
