import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '@werkwissen/shared';
import { imageSize } from 'image-size';
import { type Block, ExtractionError } from './blocks.ts';
import { type OcrText, recognise, recogniseInScript, runTool } from './ocr-tesseract.ts';

export interface OcrOptions {
  tesseractPath: string;
  pdftoppmPath: string;
  /** Tesseract packs of the company's languages (deu, eng, ...), the most used first. */
  languages: string[];
  /** Most pages of one scan read; more end with FILE_PARSE_LIMIT. */
  maxPages: number;
  /** Time limit of each OCR program run. */
  timeoutMs: number;
}

/** The installation's default OCR settings, for a company without languages (scripts and tests). */
export const DEFAULT_OCR_OPTIONS: OcrOptions = {
  tesseractPath: CONFIG_DEFAULTS.OCR_TESSERACT_PATH,
  pdftoppmPath: CONFIG_DEFAULTS.OCR_PDFTOPPM_PATH,
  languages: [],
  maxPages: Number(CONFIG_DEFAULTS.OCR_MAX_PAGES),
  timeoutMs: Number(CONFIG_DEFAULTS.PARSER_TIMEOUT_SECONDS) * 900,
};

export interface OcrResult {
  blocks: Block[];
  /** The pages read by OCR. */
  pages: number[];
  /** Mean confidence (0-100) of the words read. */
  meanConfidence: number;
}

export type OnProgress = (done: number, total: number) => void;

/** Larger pictures are refused before anything decodes them (a decompression bomb declares its size in its header). */
export const MAX_IMAGE_SIDE = 12_000;
export const MAX_IMAGE_PIXELS = 80_000_000;
/** Scanned pages are rendered at this resolution (Tesseract reads body text best at 200-300 dpi)... */
const RENDER_DPI = 200;
/** ...unless the page is so large that its longer side would exceed this many pixels. */
const MAX_RENDER_SIDE = 6000;

async function header(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(512 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Refuses a picture whose header declares more pixels than OCR may decode, and one without a readable header. */
export async function checkImageSize(path: string): Promise<{ width: number; height: number }> {
  let size: { width: number; height: number };
  try {
    size = imageSize(await header(path));
  } catch (error) {
    throw new ExtractionError('FILE_CORRUPT', `image header: ${(error as Error).message}`);
  }
  if (
    size.width > MAX_IMAGE_SIDE ||
    size.height > MAX_IMAGE_SIDE ||
    size.width * size.height > MAX_IMAGE_PIXELS
  )
    throw new ExtractionError('FILE_PARSE_LIMIT', `image of ${size.width} x ${size.height} pixels`);
  return size;
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : Math.round((10 * values.reduce((a, b) => a + b, 0)) / values.length) / 10;

/** A photo or scanned picture (PNG, JPEG, TIFF, WebP) read by OCR, in the packs of its script. */
export async function ocrImage(
  path: string,
  options: OcrOptions,
  onProgress: OnProgress,
): Promise<OcrResult> {
  await checkImageSize(path);
  onProgress(0, 1);
  const text = await recogniseInScript(options.tesseractPath, path, options.languages, options.timeoutMs);
  onProgress(1, 1);
  const pages = [...new Set(text.blocks.map((b) => b.page ?? 1))];
  return {
    blocks: text.blocks,
    pages: pages.length > 0 ? pages : [1],
    meanConfidence: mean(text.confidences),
  };
}

/**
 * Scanned PDF pages read by OCR: each rendered alone by pdftoppm (greyscale PNG), then read by Tesseract in the
 * packs of the script found on the first page (see `recogniseInScript`). Progress is reported after each page.
 */
export async function ocrPdfPages(
  path: string,
  pages: { page: number; width: number; height: number }[],
  options: OcrOptions,
  onProgress: OnProgress,
): Promise<OcrResult> {
  if (pages.length > options.maxPages)
    throw new ExtractionError(
      'FILE_PARSE_LIMIT',
      `${pages.length} scanned pages, at most ${options.maxPages}`,
    );
  const dir = await mkdtemp(join(tmpdir(), 'ww-ocr-'));
  try {
    const blocks: Block[] = [];
    const confidences: number[] = [];
    let packs: string[] | null = null;
    onProgress(0, pages.length);
    for (const [i, { page, width, height }] of pages.entries()) {
      const dpi = Math.max(
        36,
        Math.min(RENDER_DPI, Math.floor((MAX_RENDER_SIDE * 72) / Math.max(width, height, 1))),
      );
      const prefix = join(dir, `page-${page}`);
      const range = ['-f', String(page), '-l', String(page)];
      await runTool(
        options.pdftoppmPath,
        ['-r', String(dpi), ...range, '-gray', '-png', '-singlefile', path, prefix],
        options.timeoutMs,
      );
      const image = `${prefix}.png`;
      let text: OcrText;
      if (packs) text = await recognise(options.tesseractPath, image, packs, options.timeoutMs);
      else {
        const first = await recogniseInScript(
          options.tesseractPath,
          image,
          options.languages,
          options.timeoutMs,
        );
        packs = first.packs;
        text = first;
      }
      await rm(image, { force: true });
      blocks.push(...text.blocks.map((b) => ({ ...b, page })));
      confidences.push(...text.confidences);
      onProgress(i + 1, pages.length);
    }
    return { blocks, pages: pages.map((p) => p.page), meanConfidence: mean(confidences) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
