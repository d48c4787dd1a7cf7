import { readFile } from 'node:fs/promises';
import { type FileKind, IMAGE_FILE_KINDS } from '@werkwissen/shared';
import { type Block, type Extracted, ExtractionError, OCR_NOT_INSTALLED, textLength } from './blocks.ts';
import { decodeText } from './decode-text.ts';
import { docxToBlocks } from './docx-blocks.ts';
import { htmlToBlocks } from './html-blocks.ts';
import { markdownToBlocks } from './markdown-blocks.ts';
import {
  DEFAULT_OCR_OPTIONS,
  type OcrOptions,
  type OcrResult,
  type OnProgress,
  ocrImage,
  ocrPdfPages,
} from './ocr.ts';
import { OcrNotInstalled } from './ocr-tesseract.ts';
import { pdfToBlocks } from './pdf-blocks.ts';
import { csvToBlocks, plainTextToBlocks } from './text-blocks.ts';

export interface ExtractOptions {
  ocr: OcrOptions;
  /** Pages read by OCR so far, of how many. */
  onProgress?: OnProgress;
  /** How many mails are around the file (a mail's attachments are read through here again). */
  depth?: number;
}

/** Fewer characters than this from scanned pages and pictures: no text (a page number or a stamp is not text). */
const MIN_CHARS = 20;

/**
 * Reads a stored file into structured blocks, or throws an ExtractionError with the reason. Photos and the scanned
 * pages of a PDF are read by OCR; the result says which pages and how confident it was.
 */
export async function extractDocument(
  filePath: string,
  kind: FileKind,
  options: ExtractOptions = { ocr: DEFAULT_OCR_OPTIONS },
): Promise<Extracted> {
  const onProgress = options.onProgress ?? (() => {});
  if (IMAGE_FILE_KINDS.includes(kind)) {
    const ocr = await withOcr(() => ocrImage(filePath, options.ocr, onProgress));
    if (!ocr) return finish(kind, { blocks: [], pageCount: 1 }, true);
    const { pages, meanConfidence } = ocr;
    // A picture's passages carry no page: a page means a PDF to the clients, which open it in their PDF viewer.
    const blocks = ocr.blocks.map(({ page: _, ...block }) => block);
    return finish(kind, { blocks, pageCount: Math.max(...pages), ocr: { pages, meanConfidence } }, false);
  }
  const buffer = await readFile(filePath);
  if (buffer.length === 0) throw new ExtractionError('FILE_EMPTY');
  let result: Extracted;
  // The readers of the rarer formats (and their libraries) load with their first file: the parser's memory limit is
  // shared with pdf.js, which every PDF needs.
  switch (kind) {
    case 'pdf': {
      const pdf = await pdfToBlocks(buffer);
      result = { blocks: pdf.blocks, pageCount: pdf.pageCount };
      const scanned = new Set(pdf.scannedPages.map((p) => p.page));
      if (scanned.size === 0) return finish(kind, result, false, scanned);
      const ocr = await withOcr(() => ocrPdfPages(filePath, pdf.scannedPages, options.ocr, onProgress));
      if (!ocr) return finish(kind, result, true, scanned);
      return finish(kind, { ...mergePages(pdf.blocks, ocr), pageCount: pdf.pageCount }, false, scanned);
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
    case 'pptx':
      result = await (await import('./pptx-blocks.ts')).pptxToBlocks(buffer);
      break;
    case 'xlsx':
      result = await (await import('./xlsx-blocks.ts')).xlsxToBlocks(buffer);
      break;
    case 'ods':
      result = await (await import('./odf-blocks.ts')).odsToBlocks(buffer);
      break;
    case 'odt':
      result = await (await import('./odf-blocks.ts')).odtToBlocks(buffer);
      break;
    case 'odp':
      result = await (await import('./odf-blocks.ts')).odpToBlocks(buffer);
      break;
    case 'rtf':
      result = { blocks: await (await import('./rtf-blocks.ts')).rtfToBlocks(buffer), pageCount: null };
      break;
    case 'eml':
      result = await (await import('./eml-blocks.ts')).emlToBlocks(
        buffer,
        options.depth ?? 0,
        (path, inner, depth) => extractDocument(path, inner, { ...options, depth }),
      );
      break;
    default:
      throw new ExtractionError('FILE_CORRUPT', `no reader for ${kind}`);
  }
  return finish(kind, result, false);
}

/** The OCR result, or null when OCR is not installed. */
async function withOcr(run: () => Promise<OcrResult>): Promise<OcrResult | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OcrNotInstalled) return null;
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError('FILE_CORRUPT', `OCR: ${(error as Error).message}`);
  }
}

/** The text layer's blocks with the OCR'd pages' blocks in their place, in page order. */
function mergePages(textBlocks: Block[], ocr: OcrResult): Pick<Extracted, 'blocks' | 'ocr'> {
  const ocrPages = new Set(ocr.pages);
  const blocks = [...textBlocks.filter((b) => !ocrPages.has(b.page ?? 0)), ...ocr.blocks];
  blocks.sort((a, b) => (a.page ?? 0) - (b.page ?? 0));
  return { blocks, ocr: { pages: ocr.pages, meanConfidence: ocr.meanConfidence } };
}

/**
 * Refuses a result without text. The minimum of characters applies only to what a scan gave (a picture, or a PDF's
 * `scanned` pages: a page number or a stamp is not text); a PDF's text layer counts from its first character, so a
 * one-line PDF ("Hello world!") is text. A PDF with no character at all has no text layer.
 */
function finish(kind: FileKind, result: Extracted, neededOcr: boolean, scanned?: Set<number>): Extracted {
  const fromScans = (b: Block) => IMAGE_FILE_KINDS.includes(kind) || scanned?.has(b.page ?? 0) === true;
  const layerChars = textLength(result.blocks.filter((b) => !fromScans(b)));
  const scanChars = textLength(result.blocks.filter(fromScans));
  if (layerChars === 0 && scanChars < MIN_CHARS) {
    if (neededOcr) throw new ExtractionError('FILE_NO_TEXT', OCR_NOT_INSTALLED);
    if (kind === 'pdf' || IMAGE_FILE_KINDS.includes(kind)) throw new ExtractionError('FILE_NO_TEXT');
  }
  if (layerChars + scanChars === 0) throw new ExtractionError('FILE_EMPTY');
  return result;
}
