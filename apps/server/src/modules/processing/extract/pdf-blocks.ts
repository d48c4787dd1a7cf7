import { getDocumentProxy } from 'unpdf';
import { type Block, ExtractionError, normalizeSpace } from './blocks.ts';

interface Line {
  text: string;
  size: number;
  y: number;
}

interface TextItemLike {
  str: string;
  hasEOL: boolean;
  transform: number[];
}

function pageLines(items: TextItemLike[]): Line[] {
  const lines: Line[] = [];
  let text = '';
  let size = 0;
  let y = Number.NaN;
  const push = () => {
    if (normalizeSpace(text)) lines.push({ text: normalizeSpace(text), size, y });
    text = '';
    size = 0;
    y = Number.NaN;
  };
  for (const item of items) {
    const [a = 0, b = 0, , , , ty = 0] = item.transform;
    const itemSize = Math.hypot(a, b);
    if (!Number.isNaN(y) && Math.abs(ty - y) > Math.max(itemSize, size) * 0.5 && item.str.trim()) push();
    if (Number.isNaN(y) && item.str.trim()) y = ty;
    text += item.str;
    if (item.str.trim()) size = Math.max(size, itemSize);
    if (item.hasEOL) push();
  }
  push();
  return lines;
}

/**
 * PDF text per page with pdf.js (through unpdf): lines become paragraphs at vertical gaps, and lines set clearly
 * larger than the body text become headings. Passwords, damage and pages without a text layer end in reason codes.
 */
export async function pdfToBlocks(buffer: Buffer): Promise<{ blocks: Block[]; pageCount: number }> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(buffer), { isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'PasswordException')
      throw new ExtractionError('FILE_PASSWORD_PROTECTED', (error as Error).message);
    throw new ExtractionError('FILE_CORRUPT', `${name}: ${(error as Error).message}`);
  }
  try {
    const pages: Line[][] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(pageLines(content.items.filter((i) => 'str' in i) as TextItemLike[]));
      page.cleanup();
    }
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
            paragraph.endsWith('-') && /^\p{Ll}/u.test(line.text)
              ? paragraph.slice(0, -1) + line.text
              : `${paragraph} ${line.text}`;
        }
        lastY = line.y;
        lastSize = line.size;
      }
      flush();
    });
    return { blocks, pageCount: pdf.numPages };
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError('FILE_CORRUPT', (error as Error).message);
  } finally {
    await pdf.destroy().catch(() => {});
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
