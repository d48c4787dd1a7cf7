import { execFile } from 'node:child_process';
import type { Block } from './blocks.ts';

/** The OCR programs are not on this machine (or not at the configured path). */
export class OcrNotInstalled extends Error {}

/** Runs an OCR tool with its own time limit (killed at once when over it); its standard output as text. */
export function runTool(bin: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new OcrNotInstalled(bin));
        const reason = error.killed ? `killed after ${timeoutMs} ms` : stderr.trim().slice(-300);
        reject(new Error(`${bin} ${args.at(-1)}: ${reason || error.message}`));
      },
    );
  });
}

/** The script Tesseract's orientation and script detection sees on an image (Latin, Cyrillic, Arabic, ...). */
export async function detectScript(bin: string, image: string, timeoutMs: number): Promise<string | null> {
  // Too little text for a guess ends the run with an error: then the company's languages decide alone.
  const out = await runTool(bin, [image, 'stdout', '--psm', '0', '-l', 'osd'], timeoutMs).catch((error) => {
    if (error instanceof OcrNotInstalled) throw error;
    return '';
  });
  return /^Script: (\w+)/m.exec(out)?.[1] ?? null;
}

const LATIN_PACKS = ['deu', 'eng', 'fra', 'ita', 'pol', 'por'];
const CYRILLIC_PACKS = ['rus', 'ukr'];
/** The pack tried for each script when the script is unknown. */
const SCRIPT_MAIN_PACKS = ['eng', 'rus', 'ara'];
/** More packs per run cost time for little gain; the company's first ones are kept. */
const MAX_PACKS = 3;

/**
 * The language packs to read a page with: the company's languages written in the page's script, else the script's
 * main language (eng, rus, ara); without a detected script, the company's languages.
 */
export function packsFor(script: string | null, companyPacks: string[]): string[] {
  const pick = (of: string[], fallback: string) => {
    const own = companyPacks.filter((p) => of.includes(p)).slice(0, MAX_PACKS);
    return own.length > 0 ? own : [fallback];
  };
  if (script === 'Latin') return pick(LATIN_PACKS, 'eng');
  if (script === 'Cyrillic') return pick(CYRILLIC_PACKS, 'rus');
  if (script === 'Arabic') return ['ara'];
  return companyPacks.length > 0 ? companyPacks.slice(0, MAX_PACKS) : ['eng'];
}

export interface OcrText {
  /** Paragraphs as Tesseract found them, with the page (of a multi-page TIFF, else 1). */
  blocks: Block[];
  /** Confidence (0-100) of each word read. */
  confidences: number[];
}

/** Reads an image with Tesseract; its TSV output carries each word with its confidence and paragraph. */
export async function recognise(
  bin: string,
  image: string,
  packs: string[],
  timeoutMs: number,
): Promise<OcrText> {
  const tsv = await runTool(bin, [image, 'stdout', '-l', packs.join('+'), '--psm', '3', 'tsv'], timeoutMs);
  return parseTsv(tsv);
}

/** Word confidence (mean, 0-100) from which a reading is taken as is, without trying another script. */
const CONFIDENT = 70;

/**
 * Reads an image in the packs of its script: first those of the script orientation and script detection sees, then
 * (when that reading is not confident, or detection could not tell, e.g. with little text or a noisy scan) the
 * company's packs, then the main pack of each other script, until one reads confidently; the most confident reading
 * wins. Answers the packs used, for the next pages of the same document.
 */
export async function recogniseInScript(
  bin: string,
  image: string,
  companyPacks: string[],
  timeoutMs: number,
): Promise<OcrText & { packs: string[] }> {
  const script = await detectScript(bin, image, timeoutMs);
  const tried = new Set<string>();
  const candidates = [
    ...(script ? [packsFor(script, companyPacks)] : []),
    packsFor(null, companyPacks),
    ...SCRIPT_MAIN_PACKS.map((p) => [p]),
  ].filter((packs) => {
    const key = packs.join('+');
    if (tried.has(key)) return false;
    tried.add(key);
    return true;
  });
  let best: (OcrText & { packs: string[]; mean: number }) | null = null;
  for (const packs of candidates) {
    const text = await recognise(bin, image, packs, timeoutMs);
    const mean = text.confidences.reduce((a, b) => a + b, 0) / Math.max(1, text.confidences.length);
    if (!best || mean > best.mean) best = { ...text, packs, mean };
    if (mean >= CONFIDENT) break;
  }
  return best!;
}

/** Tesseract's TSV (level, page, block, paragraph, line, word, box, confidence, text) as paragraphs. */
export function parseTsv(tsv: string): OcrText {
  const paragraphs = new Map<string, { page: number; lines: Map<string, string[]> }>();
  const confidences: number[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const [, page, block, par, line] = cells;
    const conf = Number(cells[10]);
    const word = cells.slice(11).join('\t').trim();
    if (!word || conf < 0) continue;
    confidences.push(conf);
    const key = `${page}/${block}/${par}`;
    let paragraph = paragraphs.get(key);
    if (!paragraph) {
      paragraph = { page: Number(page), lines: new Map() };
      paragraphs.set(key, paragraph);
    }
    const words = paragraph.lines.get(line!) ?? [];
    words.push(word);
    paragraph.lines.set(line!, words);
  }
  const blocks: Block[] = [];
  for (const { page, lines } of paragraphs.values()) {
    let text = '';
    for (const words of lines.values()) {
      const next = words.join(' ');
      // A word hyphenated at the end of a line is one word.
      text =
        /\p{L}[-\u00ad\u2010]$/u.test(text) && /^\p{Ll}/u.test(next)
          ? text.slice(0, -1) + next
          : `${text} ${next}`;
    }
    blocks.push({ kind: 'paragraph', text: text.trim(), page });
  }
  return { blocks, confidences };
}
