import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Writes a small dictionary in the dictd format FreeDict ships (`NAME.index` and `NAME.dict.dz` or `NAME.dict`), so
 * that tests of the question translation need no installed dictionary. With `chunkLength` the text is a real dictzip
 * file: a gzip stream whose header's `RA` field lists chunks compressed independently (each ends with a full flush,
 * the last one finishes the stream), as `dictzip` writes it.
 */
export function writeDictd(
  dir: string,
  name: string,
  entries: Array<{ headword: string; body: string }>,
  options: { chunkLength?: number } = {},
): void {
  const b64 = (n: number) => {
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let out = '';
    do {
      out = digits[n % 64] + out;
      n = Math.floor(n / 64);
    } while (n > 0);
    return out;
  };
  const info = '00-database-info\nA dictionary written by a test.\n';
  const parts: string[] = [info];
  const index: string[] = [`00databaseinfo\t${b64(0)}\t${b64(Buffer.byteLength(info))}`];
  let offset = Buffer.byteLength(info);
  for (const e of entries) {
    const text = `${e.body}\n`;
    index.push(`${e.headword}\t${b64(offset)}\t${b64(Buffer.byteLength(text))}`);
    parts.push(text);
    offset += Buffer.byteLength(text);
  }
  writeFileSync(join(dir, `${name}.index`), `${index.join('\n')}\n`);
  const text = Buffer.from(parts.join(''));
  if (!options.chunkLength) {
    writeFileSync(join(dir, `${name}.dict`), text);
    return;
  }
  const chunks: Buffer[] = [];
  for (let start = 0; start < text.length; start += options.chunkLength) {
    const last = start + options.chunkLength >= text.length;
    const piece = text.subarray(start, start + options.chunkLength);
    chunks.push(deflateRawSync(piece, { finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH }));
  }
  const ra = Buffer.alloc(6 + 2 * chunks.length);
  ra.writeUInt16LE(1, 0);
  ra.writeUInt16LE(options.chunkLength, 2);
  ra.writeUInt16LE(chunks.length, 4);
  chunks.forEach((c, i) => {
    ra.writeUInt16LE(c.length, 6 + 2 * i);
  });
  const extra = Buffer.concat([Buffer.from('RA'), u16(ra.length), ra]);
  const header = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 2, 3]), u16(extra.length), extra]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(text), 0);
  trailer.writeUInt32LE(text.length, 4);
  writeFileSync(join(dir, `${name}.dict.dz`), Buffer.concat([header, ...chunks, trailer]));
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}
