import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * A glyph's text as it goes into the visual order of its line. PDFs place right-to-left text in visual order, and
 * pdf.js reads each line back by reversing its right-to-left runs character by character. A glyph that stands for
 * several right-to-left characters is mapped to them in reading order (the lam-alef ligature to lam then alef, a
 * letter and its vowel mark), so the reversal would swap them: "المشكلات" came out "المشكالت". Reversed here, they
 * come out of the line's reversal in reading order, as pdf.js did before version 5 (`reverseIfRtl`) and as PDFBox
 * does (PDFBOX-4531). Digits keep their order: a right-to-left line keeps numbers left to right.
 */
export function glyphInVisualOrder(text: string): string {
  return text.length > 1 && RTL_ONLY.test(text) ? [...text].reverse().join('') : text;
}

const RTL_ONLY = /^(?:(?!\p{Nd})[\p{scx=Arabic}\p{scx=Hebrew}\p{scx=Syriac}\p{scx=Thaana}\p{scx=Nko}])+$/u;

/** The statement of pdf.js's worker (pdfjs-dist 5 and 6) that adds one glyph's text to its line. */
export const GLYPH_STATEMENT = 'textChunk.str.push(glyphUnicode);';
const FIX_NAME = '__werkwissenGlyphInVisualOrder';

/**
 * pdf.js's worker source with each glyph's text passed through `glyphInVisualOrder`, or null when the statement is
 * not there exactly once (another pdf.js version: the fix must be looked at again, which a test says).
 */
export function withGlyphOrderFix(workerSource: string): string | null {
  const at = workerSource.indexOf(GLYPH_STATEMENT);
  if (at < 0 || workerSource.indexOf(GLYPH_STATEMENT, at + 1) >= 0) return null;
  return workerSource.replace(GLYPH_STATEMENT, `textChunk.str.push(globalThis.${FIX_NAME}(glyphUnicode));`);
}

let loading: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | null = null;

/**
 * pdf.js (the legacy build, for Node), loaded on the first PDF, with its worker running in this process: the
 * worker's source from the installed package with the glyph-order fix, handed to pdf.js as `globalThis.pdfjsWorker`
 * (its documented way to run the worker on the main thread). The fixed source is imported from a file in a folder
 * of this process's own (mode 0700, removed once loaded): a data: URL of it took the module loader past the parser's
 * memory limit. Without the statement the fix needs, or without a temporary folder, pdf.js runs as installed.
 * pdf.js picks its worker with the first document it opens and keeps it for the process: code and tests load pdf.js
 * only through here (a test that imported pdfjs-dist itself left later files of its worker without the fix).
 */
export function loadPdfjs(): Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> {
  loading ??= (async () => {
    const source = await readFile(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), 'utf8');
    const fixed = withGlyphOrderFix(source);
    if (fixed) {
      (globalThis as Record<string, unknown>)[FIX_NAME] = glyphInVisualOrder;
      const folder = await mkdtemp(join(tmpdir(), 'ww-pdfjs-')).catch((error: Error) => {
        console.warn(`pdf.js runs without the glyph-order fix: ${error.message}`);
        return null;
      });
      if (folder) {
        try {
          const file = join(folder, 'pdf.worker.mjs');
          await writeFile(file, fixed, { mode: 0o600 });
          (globalThis as Record<string, unknown>).pdfjsWorker = await import(pathToFileURL(file).href);
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      }
    }
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}
