import iconv from 'iconv-lite';
import { ExtractionError } from './blocks.ts';
import { bestLegacyDecoding } from './legacy-encoding.ts';

export function bomEncoding(b: Buffer): { encoding: string; skip: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf8', skip: 3 };
  if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return { encoding: 'utf32le', skip: 4 };
  if (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return { encoding: 'utf32be', skip: 4 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf16le', skip: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf16be', skip: 2 };
  return null;
}

/** UTF-16/32 without a byte-order mark shows as NUL bytes at regular places in mostly-ASCII text. */
export function nulPatternEncoding(b: Buffer): string | null {
  const n = Math.min(b.length, 4096) & ~3;
  if (n < 8) return null;
  const zerosAt = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) if (b[i] === 0) zerosAt[i % 4]!++;
  const quarter = n / 4;
  const [z0, z1, z2, z3] = zerosAt as [number, number, number, number];
  if (z1 > 0.8 * quarter && z2 > 0.8 * quarter && z3 > 0.8 * quarter && z0 < 0.2 * quarter) return 'utf32le';
  if (z0 > 0.8 * quarter && z1 > 0.8 * quarter && z2 > 0.8 * quarter && z3 < 0.2 * quarter) return 'utf32be';
  if (z1 + z3 > 1.6 * quarter && z0 + z2 < 0.4 * quarter) return 'utf16le';
  if (z0 + z2 > 1.6 * quarter && z1 + z3 < 0.4 * quarter) return 'utf16be';
  return null;
}

function isMostlyReadable(text: string): boolean {
  if (!text) return true;
  let bad = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12)) bad++;
  }
  return bad / text.length < 0.02;
}

/**
 * Text of any encoding as a string: a byte-order mark first, then strict UTF-8, then UTF-16/32 recognised by their
 * NUL pattern, then the legacy encoding that reads most like real text (see `bestLegacyDecoding`).
 */
export function decodeText(buffer: Buffer): string {
  const bom = bomEncoding(buffer);
  if (bom) return check(iconv.decode(buffer.subarray(bom.skip), bom.encoding));
  const nul = nulPatternEncoding(buffer);
  if (nul) return check(iconv.decode(buffer, nul));
  try {
    return check(new TextDecoder('utf-8', { fatal: true }).decode(buffer));
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
  }
  const best = bestLegacyDecoding(buffer);
  if (!best) throw new ExtractionError('FILE_ENCODING_UNKNOWN', 'no encoding reads as text');
  return check(best.text);
}

function check(text: string): string {
  if (!isMostlyReadable(text)) throw new ExtractionError('FILE_ENCODING_UNKNOWN', 'unreadable characters');
  return text.replace(/\r\n?/g, '\n');
}
