import { XMLParser } from 'fast-xml-parser';
import { ExtractionError, normalizeSpace } from './blocks.ts';

/** An element of a parsed XML document, children in document order (text as `#text` nodes). */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text?: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

function convert(items: Ordered[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      if (name === ':@') continue;
      if (name === '#text') out.push({ name, attrs: {}, children: [], text: String(value) });
      else out.push({ name, attrs: item[':@'] ?? {}, children: convert((value as Ordered[]) ?? []) });
    }
  }
  return out;
}

/**
 * An Office or OpenDocument XML part as a tree. Such parts never declare a DOCTYPE; one that does is refused, so
 * that no entity expansion (a "billion laughs") can happen.
 */
export function parseXml(xml: Buffer | undefined, part: string): XmlNode {
  if (!xml) throw new ExtractionError('FILE_CORRUPT', `${part} is missing`);
  const text = xml.toString('utf8');
  if (/<!DOCTYPE/i.test(text.slice(0, 4096)))
    throw new ExtractionError('FILE_CORRUPT', `${part} has a DOCTYPE`);
  try {
    return { name: '#document', attrs: {}, children: convert(parser.parse(text) as Ordered[]) };
  } catch (error) {
    throw new ExtractionError('FILE_CORRUPT', `${part}: ${(error as Error).message}`);
  }
}

/** Every descendant (depth first, document order) with one of the names, not looking inside matches. */
export function findAll(node: XmlNode, names: string | string[], out: XmlNode[] = []): XmlNode[] {
  const wanted = typeof names === 'string' ? [names] : names;
  for (const child of node.children) {
    if (wanted.includes(child.name)) out.push(child);
    else findAll(child, wanted, out);
  }
  return out;
}

export const firstOf = (node: XmlNode, name: string) => findAll(node, name)[0];

/** Elements whose text stands for white space: line breaks, tabs and ODF's counted spaces. */
const SPACING: Record<string, (n: XmlNode) => string> = {
  'a:br': () => ' ',
  'text:line-break': () => ' ',
  'text:tab': () => ' ',
  'text:s': (n) => ' '.repeat(Math.min(Number(n.attrs['text:c'] ?? 1) || 1, 100)),
};

/** The text of an element and its descendants, spaces collapsed; `skip` names subtrees that are not text. */
export function textOf(node: XmlNode, skip: ReadonlySet<string> = new Set()): string {
  const parts: string[] = [];
  const walk = (n: XmlNode) => {
    if (n.text !== undefined) parts.push(n.text);
    else if (SPACING[n.name]) parts.push(SPACING[n.name]!(n));
    else if (!skip.has(n.name)) for (const c of n.children) walk(c);
  };
  walk(node);
  return normalizeSpace(parts.join(''));
}
