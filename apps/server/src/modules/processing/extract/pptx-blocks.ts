import { posix } from 'node:path';
import { type Block, type Extracted, ExtractionError } from './blocks.ts';
import { findAll, firstOf, parseXml, textOf, type XmlNode } from './xml-tree.ts';
import { readZipEntries } from './zip-entries.ts';

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
/** Placeholders that repeat on every slide rather than say something: slide number, date, footer. */
const CHROME_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);

/** The relationships of an OOXML part (`_rels/<name>.rels`): id to target part, with its type. */
function relationshipsOf(
  parts: Map<string, Buffer>,
  part: string,
): Map<string, { target: string; type: string }> {
  const relsPath = posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
  const out = new Map<string, { target: string; type: string }>();
  const xml = parts.get(relsPath);
  if (!xml) return out;
  for (const rel of findAll(parseXml(xml, relsPath), 'Relationship')) {
    const target = rel.attrs.Target ?? '';
    out.set(rel.attrs.Id ?? '', {
      target: target.startsWith('/') ? target.slice(1) : posix.join(posix.dirname(part), target),
      type: rel.attrs.Type ?? '',
    });
  }
  return out;
}

const placeholderOf = (shape: XmlNode) => firstOf(shape, 'p:ph')?.attrs.type;

/** The paragraphs, title and tables of one slide's (or notes page's) shape tree, in document order. */
function shapeBlocks(tree: XmlNode, page: number, withTitle: boolean): Block[] {
  const blocks: Block[] = [];
  for (const node of findAll(tree, ['p:sp', 'a:tbl'])) {
    if (node.name === 'a:tbl') {
      const rows = findAll(node, 'a:tr')
        .map((row) => findAll(row, 'a:tc').map((cell) => textOf(cell)))
        .filter((row) => row.some((cell) => cell));
      if (rows.length) blocks.push({ kind: 'table', rows, page });
      continue;
    }
    const type = placeholderOf(node);
    if (type && CHROME_PLACEHOLDERS.has(type)) continue;
    const paragraphs = findAll(node, 'a:p')
      .map((p) => textOf(p))
      .filter(Boolean);
    if (withTitle && type && TITLE_PLACEHOLDERS.has(type)) {
      if (paragraphs.length) blocks.push({ kind: 'heading', level: 1, text: paragraphs.join(' '), page });
      continue;
    }
    for (const text of paragraphs) blocks.push({ kind: 'paragraph', text, page });
  }
  return blocks;
}

/** A .pptx: each slide's title, text and tables, then its speaker notes, one page per slide in show order. */
export async function pptxToBlocks(buffer: Buffer): Promise<Extracted> {
  const parts = await readZipEntries(buffer, (name) => name.startsWith('ppt/') && /\.(xml|rels)$/.test(name));
  const presentation = parseXml(parts.get('ppt/presentation.xml'), 'ppt/presentation.xml');
  const rels = relationshipsOf(parts, 'ppt/presentation.xml');
  const slides = findAll(presentation, 'p:sldId').flatMap((s) => {
    const rel = rels.get(s.attrs['r:id'] ?? '');
    return rel && parts.has(rel.target) ? [rel.target] : [];
  });
  if (slides.length === 0) throw new ExtractionError('FILE_CORRUPT', 'no slides');
  const blocks: Block[] = [];
  slides.forEach((slide, i) => {
    const page = i + 1;
    blocks.push(...shapeBlocks(parseXml(parts.get(slide), slide), page, true));
    const notes = [...relationshipsOf(parts, slide).values()].find((r) => r.type.endsWith('/notesSlide'));
    const notesXml = notes && parts.get(notes.target);
    if (notesXml) {
      const tree = parseXml(notesXml, notes.target);
      const body = findAll(tree, 'p:sp').filter((sp) => placeholderOf(sp) === 'body');
      for (const shape of body) {
        for (const p of findAll(shape, 'a:p')) {
          const text = textOf(p);
          if (text) blocks.push({ kind: 'paragraph', text, page });
        }
      }
    }
  });
  return { blocks, pageCount: slides.length };
}
