import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileKind } from '@werkwissen/shared';
import { simpleParser } from 'mailparser';
import { type Block, type Extracted, ExtractionError } from './blocks.ts';
import { htmlToBlocks } from './html-blocks.ts';
import { sniffFileKind } from './sniff-type.ts';
import { plainTextToBlocks } from './text-blocks.ts';

/** How deep mails inside mails are read; attachments further down are left out. */
export const MAX_MAIL_DEPTH = 3;
/** Most attachments of one mail that are read. */
export const MAX_MAIL_ATTACHMENTS = 50;

type Extract = (path: string, kind: FileKind, depth: number) => Promise<Extracted>;

/** Blocks moved below a heading: their headings one or more levels down, without pages of their own. */
const below = (blocks: Block[], levels: number): Block[] =>
  blocks.map((b) => {
    const { page: _page, ...rest } = b;
    return rest.kind === 'heading' ? { ...rest, level: Math.min(6, rest.level + levels) } : rest;
  });

/** The text of one attachment through the same extractor, or nothing when it is not a document we read. */
async function attachmentBlocks(content: Buffer, name: string, depth: number, extract: Extract) {
  const dir = await mkdtemp(join(tmpdir(), 'ww-mail-'));
  try {
    const path = join(dir, 'attachment');
    await writeFile(path, content);
    const { kind } = await sniffFileKind(path, name);
    if (!kind) return [];
    return (await extract(path, kind, depth)).blocks;
  } catch (error) {
    // A limit stops the whole mail (a bomb stays a bomb inside a mail); an unreadable attachment is left out.
    if (error instanceof ExtractionError && error.code === 'FILE_PARSE_LIMIT') throw error;
    return [];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * An .eml: the subject as heading, sender, recipients and date, the body (HTML with its structure, else text), then
 * each attachment in a format we read under its file name, read by the same extractor (mails in mails too).
 */
export async function emlToBlocks(buffer: Buffer, depth: number, extract: Extract): Promise<Extracted> {
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(buffer, { skipImageLinks: true, skipTextToHtml: true, ignoreEmbedded: true });
  } catch (error) {
    throw new ExtractionError('FILE_CORRUPT', (error as Error).message);
  }
  const blocks: Block[] = [];
  if (mail.subject?.trim()) blocks.push({ kind: 'heading', level: 1, text: mail.subject.trim() });
  const addresses = (label: string, value: typeof mail.to) => {
    const text = (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ');
    if (text) blocks.push({ kind: 'paragraph', text: `${label}: ${text}` });
  };
  addresses('From', mail.from);
  addresses('To', mail.to);
  addresses('Cc', mail.cc);
  if (mail.date) blocks.push({ kind: 'paragraph', text: `Date: ${mail.date.toISOString()}` });
  const body = mail.html ? htmlToBlocks(mail.html) : plainTextToBlocks(mail.text ?? '');
  blocks.push(...below(body, 1));
  if (depth < MAX_MAIL_DEPTH) {
    for (const attachment of mail.attachments.slice(0, MAX_MAIL_ATTACHMENTS)) {
      const name = attachment.filename ?? '';
      const inner = await attachmentBlocks(attachment.content, name, depth + 1, extract);
      if (inner.length === 0) continue;
      if (name) blocks.push({ kind: 'heading', level: 2, text: name });
      blocks.push(...below(inner, 2));
    }
  }
  return { blocks, pageCount: null };
}
