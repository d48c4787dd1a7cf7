import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { type Block, ExtractionError, normalizeSpace } from './blocks.ts';
import { dropRunningLines, type Line, pageLines, type TextPiece } from './pdf-lines.ts';
import { loadPdfjs } from './pdfjs.ts';

const pdfjsFolder = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
/** pdf.js's CMaps (CJK fonts) and standard-font data, read from the installed package, never fetched. */
export const PDFJS_LOCAL_DATA = {
  cMapUrl: `${join(pdfjsFolder, 'cmaps')}/`,
  cMapPacked: true,
  standardFontDataUrl: `${join(pdfjsFolder, 'standard_fonts')}/`,
};

/** A page with fewer characters than this in its text layer, but an image, is a scan. */
export const SCAN_PAGE_CHARS = 20;

/** A page to read by OCR, with its size in points. */
export interface ScannedPage {
  page: number;
  width: number;
  height: number;
}

/**
 * PDF text per page with pdf.js (its text normalisation unfolds ligatures such as ﬁ and Arabic presentation
 * forms): lines (see `pageLines`) become paragraphs at vertical gaps, lines set clearly larger
 * than the body text become headings, running headers and footers are dropped, a word hyphenated at a line end is
 * joined. Pages with (almost) no text layer but an image are listed as `scannedPages` for OCR. Passwords and damage
 * end in reason codes.
 */
export async function pdfToBlocks(
  buffer: Buffer,
): Promise<{ blocks: Block[]; pageCount: number; scannedPages: ScannedPage[] }> {
  // Loaded on the first PDF: the parser process reads other formats without its memory.
  const { getDocument, OPS } = await loadPdfjs();
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
  ]);
  let pdf: PDFDocumentProxy;
  try {
    pdf = await getDocument({
      data: new Uint8Array(buffer),
      ...PDFJS_LOCAL_DATA,
      stopAtErrors: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'PasswordException')
      throw new ExtractionError('FILE_PASSWORD_PROTECTED', (error as Error).message);
    throw new ExtractionError('FILE_CORRUPT', `${name}: ${(error as Error).message}`);
  }
  try {
    const found: Line[][] = [];
    const scannedPages: ScannedPage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const lines = pageLines(content.items.filter((i) => 'str' in i) as TextPiece[]);
      found.push(lines);
      if (lines.reduce((sum, l) => sum + l.text.length, 0) < SCAN_PAGE_CHARS) {
        const ops = await page.getOperatorList();
        if (ops.fnArray.some((op) => imageOps.has(op))) {
          const { width, height } = page.getViewport({ scale: 1 });
          scannedPages.push({ page: n, width, height });
        }
      }
      page.cleanup();
    }
    const pages = dropRunningLines(found);
    const bodySize = bodyTextSize(pages.flat()) ?? 10;
    const blocks: Block[] = [];
    pages.forEach((lines, index) => {
      const page = index + 1;
      let paragraph = '';
      let lastY = Number.NaN;
      let lastSize = bodySize;
      const flush = () => {
        if (normalizeSpace(paragraph))
          blocks.push({ kind: 'paragraph', text: normalizeSpace(paragraph), page });
        paragraph = '';
      };
      for (const line of lines) {
        const isHeading = line.size >= bodySize * 1.15 && line.text.length <= 160 && /\p{L}/u.test(line.text);
        if (isHeading) {
          flush();
          const last = blocks.at(-1);
          // A heading set over two lines stays one heading.
          if (
            last?.kind === 'heading' &&
            last.page === page &&
            Math.abs(lastSize - line.size) < 0.5 &&
            Math.abs(lastY - line.y) < line.size * 2
          )
            last.text = `${last.text} ${line.text}`;
          else
            blocks.push({
              kind: 'heading',
              level: line.size >= bodySize * 1.6 ? 1 : 2,
              text: line.text,
              page,
            });
        } else {
          const gap = Number.isNaN(lastY) ? 0 : Math.abs(lastY - line.y);
          if (gap > line.size * 1.8) flush();
          paragraph =
            /\p{L}[-\u00ad\u2010]$/u.test(paragraph) && /^\p{Ll}/u.test(line.text)
              ? paragraph.slice(0, -1) + line.text
              : `${paragraph} ${line.text}`;
        }
        lastY = line.y;
        lastSize = line.size;
      }
      flush();
    });
    return { blocks, pageCount: pdf.numPages, scannedPages };
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError('FILE_CORRUPT', (error as Error).message);
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

/** The font size that carries the most characters: the body text. */
function bodyTextSize(lines: Line[]): number | undefined {
  const chars = new Map<number, number>();
  for (const l of lines) {
    const size = Math.round(l.size * 10) / 10;
    chars.set(size, (chars.get(size) ?? 0) + l.text.length);
  }
  let best: number | undefined;
  let most = 0;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}
