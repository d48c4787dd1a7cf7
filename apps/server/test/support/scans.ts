/**
 * Scans of known text, made on the spot: the text is set in a PDF (pdfkit, DejaVu Sans, which has Latin, Cyrillic and
 * Arabic letters), rendered to pixels by poppler's pdftoppm, and the pixels are returned as a picture or wrapped
 * into a PDF without a text layer, as a scanner makes them.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { makeScannedPdf } from './handmade-pdf.ts';

const run = promisify(execFile);
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** An A4 page per entry, its paragraphs set in 14 pt (right-aligned for right-to-left text). */
export async function makeTextPdf(pages: string[][], options: { rtl?: boolean } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.registerFont('text', FONT);
  for (const paragraphs of pages) {
    doc.addPage();
    for (const paragraph of paragraphs)
      doc
        .font('text')
        .fontSize(14)
        .text(paragraph, { align: options.rtl ? 'right' : 'left', features: options.rtl ? ['rtla'] : [] })
        .moveDown();
  }
  doc.end();
  return done;
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ww-scan-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first page of a PDF as a picture (PNG, JPEG or TIFF) at the given resolution. */
export function renderPicture(
  pdf: Buffer,
  format: 'png' | 'jpeg' | 'tiff' = 'png',
  dpi = 150,
): Promise<Buffer> {
  return inTempDir(async (dir) => {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const out = join(dir, 'out');
    await run('pdftoppm', [
      '-r',
      String(dpi),
      '-f',
      '1',
      '-l',
      '1',
      `-${format}`,
      '-singlefile',
      join(dir, 'in.pdf'),
      out,
    ]);
    return readFile(`${out}.${format === 'jpeg' ? 'jpg' : format === 'tiff' ? 'tif' : 'png'}`);
  });
}

/** A 1 x 1 lossless WebP picture (no Debian tool writes WebP without extra packages). */
export const TINY_WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** Every page of a PDF as greyscale pixels (pdftoppm's PGM output). */
function renderGrey(pdf: Buffer, pages: number, dpi: number) {
  return inTempDir(async (dir) => {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const rasters: { pixels: Buffer; width: number; height: number }[] = [];
    for (let page = 1; page <= pages; page++) {
      const out = join(dir, `p${page}`);
      const range = ['-f', String(page), '-l', String(page)];
      await run('pdftoppm', ['-r', String(dpi), ...range, '-gray', '-singlefile', join(dir, 'in.pdf'), out]);
      const pgm = await readFile(`${out}.pgm`);
      // P5 <width> <height> <maxval> and one whitespace byte, then one byte per pixel.
      const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.toString('latin1', 0, 64))!;
      const width = Number(header[1]);
      const height = Number(header[2]);
      rasters.push({ pixels: deflateSync(pgm.subarray(header[0].length)), width, height });
    }
    return rasters;
  });
}

/** A scanned PDF (pictures only, no text layer) of the given pages of text. */
export async function makeScannedTextPdf(pages: string[][], options: { rtl?: boolean; dpi?: number } = {}) {
  return makeScannedPdf(
    await renderGrey(await makeTextPdf(pages, options), pages.length, options.dpi ?? 150),
  );
}
