import { open } from 'node:fs/promises';
import type { FileKind } from '@werkwissen/shared';
import { bomEncoding, nulPatternEncoding } from './decode-text.ts';
import { extensionOf } from './file-name.ts';

export const MIME_BY_KIND: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  tiff: 'image/tiff',
  webp: 'image/webp',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odt: 'application/vnd.oasis.opendocument.text',
  odp: 'application/vnd.oasis.opendocument.presentation',
  rtf: 'application/rtf',
  eml: 'message/rfc822',
};

/** Kinds file-type tells from the content: OOXML by `[Content_Types].xml`, ODF by its `mimetype` entry, RTF by `{\rtf`. */
const KIND_BY_DETECTED: Record<string, FileKind> = {
  pptx: 'pptx',
  xlsx: 'xlsx',
  ods: 'ods',
  odt: 'odt',
  odp: 'odp',
  rtf: 'rtf',
};

/** Pictures of text (photos, scans) by the type file-type finds in their content. */
const IMAGE_KIND_BY_TYPE: Record<string, FileKind> = { png: 'png', jpg: 'jpg', tif: 'tiff', webp: 'webp' };

const TEXT_KIND_BY_EXTENSION: Record<string, FileKind> = {
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  html: 'html',
  htm: 'html',
  csv: 'csv',
};

/** Names of formats that are never plain text: text content under such a name is refused. */
const BINARY_EXTENSIONS = new Set(['pptx', 'xlsx', 'ods', 'odt', 'odp', 'rtf']);

export type Sniffed = { kind: FileKind } | { kind: null };

async function head(filePath: string, bytes: number): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether a sample without a byte-order mark reads as text: UTF-16/32 by its NUL pattern, else no NUL bytes and few control characters. */
export function looksLikeText(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  if (nulPatternEncoding(sample)) return true;
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) controls++;
  }
  return controls / sample.length < 0.02;
}

/**
 * The document kind from the content, never from the name: PDF, DOCX and pictures (PNG, JPEG, TIFF, WebP) by their
 * structure (a zip or random bytes named .docx are refused), text formats when the content is text, told apart by the extension (or HTML markup).
 * An encrypted Office document (a compound file with an EncryptionInfo stream) counts as a DOCX so that processing
 * can report it as password-protected.
 * Presentations, spreadsheets, OpenDocument and RTF by file-type's reading of the content (OOXML's
 * `[Content_Types].xml`, ODF's `mimetype` entry); a mail (.eml) by its header block.
 */
export async function sniffFileKind(filePath: string, originalName: string): Promise<Sniffed> {
  const ext = extensionOf(originalName);
  const sample = await head(filePath, 8192);
  // A text byte-order mark first: file-type reads UTF-16LE's FF FE as an MPEG audio frame.
  if (bomEncoding(sample)) return textKind(sample, ext);
  // Loaded on first use (some 40 modules): only an upload is sniffed.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(filePath).catch(() => undefined);
  if (detected) {
    if (detected.ext === 'pdf') return { kind: 'pdf' };
    if (detected.ext === 'docx') return { kind: 'docx' };
    const image = IMAGE_KIND_BY_TYPE[detected.ext];
    if (image) return { kind: image };
    if (detected.ext === 'cfb' && (ext === 'docx' || ext === 'doc')) {
      const sample = await head(filePath, 64 * 1024);
      if (sample.includes(Buffer.from('EncryptionInfo', 'utf16le'))) return { kind: 'docx' };
    }
    const known = KIND_BY_DETECTED[detected.ext];
    if (known) return { kind: known };
    if (detected.ext === 'cfb' && (ext === 'xlsx' || ext === 'pptx')) {
      const sample = await head(filePath, 64 * 1024);
      if (sample.includes(Buffer.from('EncryptionInfo', 'utf16le'))) return { kind: ext };
    }
    // Formats file-type recognises in text (e.g. SVG or XML) are not documents we read.
    if (detected.mime !== 'application/xml') return { kind: null };
  }
  if (!looksLikeText(sample)) return { kind: null };
  return textKind(sample, ext);
}

/** An Internet message: a header block (up to the first blank line) of header lines with a sender and one of date, subject or id. */
export function looksLikeMail(sample: Buffer): boolean {
  const text = sample.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  if (end <= 0) return false;
  const lines = text.slice(0, end).split(/\r?\n/);
  if (!lines.every((line) => /^[\x21-\x39\x3b-\x7e]+:/.test(line) || /^[ \t]/.test(line))) return false;
  const names = new Set(lines.map((line) => line.split(':')[0]!.toLowerCase()));
  return names.has('from') && ['date', 'subject', 'message-id'].some((name) => names.has(name));
}

function textKind(sample: Buffer, ext: string): Sniffed {
  const byExtension = TEXT_KIND_BY_EXTENSION[ext];
  if (byExtension) return { kind: byExtension };
  if (looksLikeMail(sample)) return { kind: 'eml' };
  if (ext === 'eml') return { kind: null };
  if (ext === 'pdf' || ext === 'docx' || ext === 'doc') return { kind: null };
  if (BINARY_EXTENSIONS.has(ext)) return { kind: null };
  const start = sample.toString('latin1', 0, 1024).trimStart().toLowerCase();
  return { kind: start.startsWith('<!doctype html') || start.startsWith('<html') ? 'html' : 'txt' };
}
