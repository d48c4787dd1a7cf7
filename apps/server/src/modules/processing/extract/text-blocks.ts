import { parse } from 'csv-parse/sync';
import { type Block, normalizeSpace } from './blocks.ts';

/** Plain text: paragraphs at blank lines; a short line followed by a blank line and no final stop reads as heading. */
export function plainTextToBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of text.split(/\n\s*\n/)) {
    const lines = raw
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (!lines.length) continue;
    const bullets = lines.every((l) => /^([-*•–]|\d+[.)])\s+/.test(l));
    if (bullets) {
      for (const l of lines)
        blocks.push({ kind: 'listItem', text: normalizeSpace(l.replace(/^([-*•–]|\d+[.)])\s+/, '')) });
      continue;
    }
    const joined = normalizeSpace(lines.join(' '));
    const isHeading =
      lines.length === 1 && joined.length <= 80 && !/[.:;,!?]$/.test(joined) && /\p{L}/u.test(joined);
    blocks.push(
      isHeading ? { kind: 'heading', level: 2, text: joined } : { kind: 'paragraph', text: joined },
    );
  }
  return blocks;
}

/** A CSV file as one table (the chunker repeats the header row in every piece it cuts). */
export function csvToBlocks(text: string): Block[] {
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  const delimiter = [';', '\t', ','].reduce((best, d) =>
    firstLine.split(d).length > firstLine.split(best).length ? d : best,
  );
  const rows = parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    bom: true,
  }) as string[][];
  const cleaned = rows.map((r) => r.map(normalizeSpace)).filter((r) => r.some(Boolean));
  return cleaned.length ? [{ kind: 'table', rows: cleaned }] : [];
}
