import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { constants, gunzip, gunzipSync, inflateRawSync } from 'node:zlib';
import { flatMapInSlices } from './in-slices.ts';

/**
 * Reading dictionaries in the dictd format (what Debian's `dict-freedict-*` packages install in /usr/share/dictd):
 * `NAME.index` lists each headword with the offset and length of its entry, written in dictd's base 64, and
 * `NAME.dict.dz` (dictzip: gzip whose header lists its independently compressed chunks, so that one entry is read
 * without inflating the rest) or `NAME.dict` holds the entries' text. Entries whose headword starts with `00-database`
 * or `00database` describe the dictionary itself and are skipped.
 */

export interface DictdEntry {
  headword: string;
  /** The entry's text: its first line repeats the headword (with pronunciation and part of speech). */
  body: string;
}

export interface DictdIndexLine {
  headword: string;
  offset: number;
  length: number;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGITS = new Map([...B64].map((c, i) => [c.charCodeAt(0), i]));

/** A number in dictd's base 64 (most significant digit first). */
export function decodeDictdNumber(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = DIGITS.get(text.charCodeAt(i));
    if (digit === undefined) throw new Error(`not a dictd number: ${text}`);
    n = n * 64 + digit;
  }
  return n;
}

/** The dictionary files of `name` in `dir`, or null when either is missing. */
export function dictdFiles(dir: string, name: string): { index: string; dict: string } | null {
  const index = join(dir, `${name}.index`);
  const dict = [join(dir, `${name}.dict.dz`), join(dir, `${name}.dict`)].find((p) => existsSync(p));
  return existsSync(index) && dict ? { index, dict } : null;
}

/** The index's entries (without the dictionary's own description). */
export function readDictdIndex(path: string): DictdIndexLine[] {
  return readFileSync(path, 'utf8').split('\n').flatMap(indexLine);
}

/** `readDictdIndex`, the file read asynchronously and parsed a slice at a time (in-slices.ts). */
export async function readDictdIndexInSlices(path: string): Promise<DictdIndexLine[]> {
  return flatMapInSlices((await readFile(path, 'utf8')).split('\n'), indexLine);
}

function indexLine(line: string): DictdIndexLine[] {
  const [headword, offset, length] = line.split('\t');
  if (!headword || !offset || !length || /^00-?database/.test(headword)) return [];
  return [{ headword, offset: decodeDictdNumber(offset), length: decodeDictdNumber(length) }];
}

/** Every entry of a dictionary, in index order (for reversing a small dictionary: its whole text is read once). */
export function readDictd(files: { index: string; dict: string }): DictdEntry[] {
  const raw = readFileSync(files.dict);
  const text = files.dict.endsWith('.dz') ? gunzipSync(raw) : raw;
  return readDictdIndex(files.index).map((line) => entryOf(text, line));
}

/** `readDictd`, read and decompressed asynchronously, a slice at a time. */
export async function readDictdInSlices(files: { index: string; dict: string }): Promise<DictdEntry[]> {
  const raw = await readFile(files.dict);
  const text = files.dict.endsWith('.dz') ? await gunzipAsync(raw) : raw;
  return flatMapInSlices(await readDictdIndexInSlices(files.index), (line) => [entryOf(text, line)]);
}

const gunzipAsync = promisify(gunzip);

const entryOf = (text: Buffer, { headword, offset, length }: DictdIndexLine): DictdEntry => ({
  headword,
  body: text.subarray(offset, offset + length).toString('utf8'),
});

/** Reads single entries of a `.dict` or `.dict.dz` file on demand, keeping the file open. */
export class DictdText {
  private readonly fd: number;
  private readonly chunks: { length: number; starts: number[]; sizes: number[] } | null;
  private readonly cache = new Map<number, Buffer>();

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    this.chunks = path.endsWith('.dz') ? dictzipChunks(this.fd) : null;
  }

  read(offset: number, length: number): string {
    if (!this.chunks) {
      const buffer = Buffer.alloc(length);
      readSync(this.fd, buffer, 0, length, offset);
      return buffer.toString('utf8');
    }
    const { length: chunkLength } = this.chunks;
    const first = Math.floor(offset / chunkLength);
    const last = Math.floor((offset + length - 1) / chunkLength);
    const parts: Buffer[] = [];
    for (let i = first; i <= last; i++) parts.push(this.chunk(i));
    const start = offset - first * chunkLength;
    return Buffer.concat(parts)
      .subarray(start, start + length)
      .toString('utf8');
  }

  close(): void {
    closeSync(this.fd);
  }

  private chunk(i: number): Buffer {
    const cached = this.cache.get(i);
    if (cached) return cached;
    const { starts, sizes } = this.chunks!;
    const compressed = Buffer.alloc(sizes[i]!);
    readSync(this.fd, compressed, 0, compressed.length, starts[i]!);
    // Each chunk ends with a full flush, not the end of the stream: inflate what is there.
    const text = inflateRawSync(compressed, { finishFlush: constants.Z_SYNC_FLUSH });
    if (this.cache.size >= 16) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(i, text);
    return text;
  }
}

/** The chunk table of a dictzip file (its gzip header's `RA` extra field), with each chunk's position. */
function dictzipChunks(fd: number): { length: number; starts: number[]; sizes: number[] } {
  const header = Buffer.alloc(65_536 + 512);
  const read = readSync(fd, header, 0, header.length, 0);
  if (read < 12 || header[0] !== 0x1f || header[1] !== 0x8b || !(header[3]! & 4)) {
    throw new Error('not a dictzip file: no gzip extra field');
  }
  const flags = header[3]!;
  const extraLength = header.readUInt16LE(10);
  let at = 12;
  let table: { length: number; sizes: number[] } | null = null;
  while (at < 12 + extraLength) {
    const id = header.toString('latin1', at, at + 2);
    const length = header.readUInt16LE(at + 2);
    if (id === 'RA') {
      const chunkLength = header.readUInt16LE(at + 6);
      const count = header.readUInt16LE(at + 8);
      const sizes = Array.from({ length: count }, (_, k) => header.readUInt16LE(at + 10 + 2 * k));
      table = { length: chunkLength, sizes };
    }
    at += 4 + length;
  }
  if (!table) throw new Error('not a dictzip file: no RA field');
  at = 12 + extraLength;
  if (flags & 8) at = header.indexOf(0, at) + 1;
  if (flags & 16) at = header.indexOf(0, at) + 1;
  if (flags & 2) at += 2;
  const starts: number[] = [];
  for (const size of table.sizes) {
    starts.push(at);
    at += size;
  }
  return { length: table.length, starts, sizes: table.sizes };
}
