import { readFile } from 'node:fs/promises';
import type { FileKind } from '@werkwissen/shared';
import { type Extracted, ExtractionError, textLength } from './blocks.ts';
import { decodeText } from './decode-text.ts';
import { docxToBlocks } from './docx-blocks.ts';
import { emlToBlocks } from './eml-blocks.ts';
import { htmlToBlocks } from './html-blocks.ts';
import { markdownToBlocks } from './markdown-blocks.ts';
import { odpToBlocks, odsToBlocks, odtToBlocks } from './odf-blocks.ts';
import { pdfToBlocks } from './pdf-blocks.ts';
import { pptxToBlocks } from './pptx-blocks.ts';
import { rtfToBlocks } from './rtf-blocks.ts';
import { csvToBlocks, plainTextToBlocks } from './text-blocks.ts';
import { xlsxToBlocks } from './xlsx-blocks.ts';

/**
 * Reads a stored file into structured blocks, or throws an ExtractionError with the reason. `depth` counts mails
 * around the file (a mail's attachments are read through here again).
 */
export async function extractDocument(filePath: string, kind: FileKind, depth = 0): Promise<Extracted> {
  const buffer = await readFile(filePath);
  if (buffer.length === 0) throw new ExtractionError('FILE_EMPTY');
  let result: Extracted;
  switch (kind) {
    case 'pdf':
      result = await pdfToBlocks(buffer);
      break;
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
    case 'pptx':
      result = await pptxToBlocks(buffer);
      break;
    case 'xlsx':
      result = await xlsxToBlocks(buffer);
      break;
    case 'ods':
      result = await odsToBlocks(buffer);
      break;
    case 'odt':
      result = await odtToBlocks(buffer);
      break;
    case 'odp':
      result = await odpToBlocks(buffer);
      break;
    case 'rtf':
      result = { blocks: await rtfToBlocks(buffer), pageCount: null };
      break;
    case 'eml':
      result = await emlToBlocks(buffer, depth, extractDocument);
      break;
  }
  const chars = textLength(result.blocks);
  // A scan may carry a few characters (a page number, a stamp) but no readable text layer.
  if (kind === 'pdf' && chars < 20) throw new ExtractionError('FILE_NO_TEXT');
  if (chars === 0) throw new ExtractionError('FILE_EMPTY');
  return result;
}
