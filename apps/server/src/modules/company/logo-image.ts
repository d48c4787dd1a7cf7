import { COMPANY_LOGO_SHOWN_WIDTH } from '@werkwissen/shared';
import createDOMPurify from 'dompurify';
import { fileTypeFromBuffer } from 'file-type';
import { JSDOM } from 'jsdom';
import sharp from 'sharp';
import { AppError } from '../../core/app-error.ts';

/** The stored logo's bounds: twice the shown width, so it stays sharp on high-density screens and in print. */
export const LOGO_BOX = COMPANY_LOGO_SHOWN_WIDTH * 2;
/** Larger pictures are refused before they are decoded (a small file can unpack to an enormous bitmap). */
const MAX_INPUT_PIXELS = 40_000_000;

/** Elements and attributes whose removal means the SVG tried to do something, not merely carried editor metadata. */
const ACTIVE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'audio', 'video']);
const REFERENCE_ATTRIBUTES = new Set(['href', 'xlink:href', 'src', 'action', 'formaction']);
/** A reference that leaves the document: anything but a fragment (`#id`). */
const EXTERNAL = (value: string) => !value.trim().startsWith('#');
const EXTERNAL_URL_IN_CSS = /url\(\s*['"]?\s*(?!#)/i;
const IMPORT_IN_CSS = /@import/i;

let purifier: ReturnType<typeof createDOMPurify> | null = null;
function svgPurifier() {
  if (!purifier) {
    purifier = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);
    // An image or <use> may keep a reference to its own document only; anything else is refused below.
    purifier.addHook('afterSanitizeAttributes', (node) => {
      for (const name of ['href', 'xlink:href']) {
        const value = node.getAttribute(name);
        if (value !== null && EXTERNAL(value)) {
          purifier!.removed.push({ attribute: node.getAttributeNode(name), from: node });
          node.removeAttribute(name);
        }
      }
    });
  }
  return purifier;
}

/** What the type sniffer calls SVG markup: nothing (it is text), XML (a declaration first), or SVG itself. */
const TEXT_TYPES = new Set<string | undefined>([undefined, 'application/xml', 'image/svg+xml']);

/** Whether the content is SVG markup (SVG is text, so the type sniffer does not name it). */
export function looksLikeSvg(content: Buffer): boolean {
  const head = content.subarray(0, 4096).toString('utf8');
  return !head.includes('\u0000') && /<svg[\s>]/i.test(head);
}

/**
 * An uploaded SVG without anything active: DOMPurify's SVG profile removes scripts, event handlers and foreign
 * content; an SVG that had any of these, a DOCTYPE (entities), or a reference to another address (an image, a
 * `<use>`, a stylesheet) is refused rather than quietly changed. Editor metadata that DOMPurify drops is no
 * reason to refuse.
 */
export function sanitiseSvg(content: Buffer): string {
  const source = content.toString('utf8');
  if (/<!DOCTYPE/i.test(source) || /<!ENTITY/i.test(source)) throw new AppError('COMPANY_LOGO_UNSAFE');
  const purify = svgPurifier();
  const clean = purify.sanitize(source, { USE_PROFILES: { svg: true, svgFilters: true } });
  const active = purify.removed.some((entry) => {
    if ('element' in entry) return ACTIVE_ELEMENTS.has(entry.element.nodeName.toLowerCase());
    const name = entry.attribute?.name.toLowerCase() ?? '';
    return name.startsWith('on') || REFERENCE_ATTRIBUTES.has(name);
  });
  if (active || EXTERNAL_URL_IN_CSS.test(clean) || IMPORT_IN_CSS.test(clean))
    throw new AppError('COMPANY_LOGO_UNSAFE');
  if (!/<svg[\s>]/i.test(clean)) throw new AppError('COMPANY_LOGO_NOT_IMAGE');
  return clean;
}

export interface LogoImage {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * Turns an uploaded logo (PNG, JPEG or SVG, by content) into the PNG the product keeps: cropped to its content (the
 * plain or transparent margin around it goes) and scaled to fit LOGO_BOX, never enlarged.
 */
export async function prepareLogo(content: Buffer): Promise<LogoImage> {
  const sniffed = await fileTypeFromBuffer(content);
  let input: Buffer;
  if (sniffed?.mime === 'image/png' || sniffed?.mime === 'image/jpeg') input = content;
  else if (TEXT_TYPES.has(sniffed?.mime) && looksLikeSvg(content)) input = Buffer.from(sanitiseSvg(content));
  else throw new AppError('COMPANY_LOGO_NOT_IMAGE');
  const open = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, density: 144 });
  try {
    // A picture of one colour has nothing to crop to: then it is only scaled.
    const trimmed = await open()
      .trim()
      .toBuffer()
      .catch(() => open().toBuffer());
    const { data, info } = await sharp(trimmed)
      .resize({ width: LOGO_BOX, height: LOGO_BOX, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    throw new AppError('COMPANY_LOGO_NOT_IMAGE');
  }
}
