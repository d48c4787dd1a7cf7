import yauzl from 'yauzl';
import { ExtractionError } from './blocks.ts';

/**
 * What an Office or OpenDocument archive may unpack to. A zip bomb declares (or, lying, produces) far more: yauzl
 * checks every entry's real size against its declared one, so the declared sizes are what the caps apply to.
 */
export const ZIP_LIMITS = { maxEntries: 10_000, maxUncompressedBytes: 256 * 1024 * 1024 };

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Refuses an encrypted Office document (a compound file, not a zip) as password-protected. */
export function refuseEncryptedOffice(buffer: Buffer): void {
  if (buffer.subarray(0, 8).equals(OLE_MAGIC)) {
    throw new ExtractionError('FILE_PASSWORD_PROTECTED', 'encrypted Office document');
  }
}

const openZip = (buffer: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true }, (error, zip) =>
      error ? reject(new ExtractionError('FILE_CORRUPT', error.message)) : resolve(zip),
    ),
  );

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new ExtractionError('FILE_CORRUPT', error.message));
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('error', (e) => reject(new ExtractionError('FILE_CORRUPT', e.message)));
      stream.on('end', () => resolve(Buffer.concat(parts)));
    });
  });
}

/**
 * The entries of a zip archive whose names `wanted` accepts, after checking the whole archive against the limits
 * (entry count and total unpacked size: `FILE_PARSE_LIMIT`); an encrypted entry is `FILE_PASSWORD_PROTECTED`.
 */
export async function readZipEntries(
  buffer: Buffer,
  wanted: (name: string) => boolean,
  limits = ZIP_LIMITS,
): Promise<Map<string, Buffer>> {
  refuseEncryptedOffice(buffer);
  const zip = await openZip(buffer);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ExtractionError('FILE_PARSE_LIMIT', `${zip.entryCount} entries in the archive`);
    }
    const entries: yauzl.Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push(entry);
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', (e: Error) => reject(new ExtractionError('FILE_CORRUPT', e.message)));
      zip.readEntry();
    });
    const total = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    if (total > limits.maxUncompressedBytes) {
      throw new ExtractionError('FILE_PARSE_LIMIT', `the archive unpacks to ${total} bytes`);
    }
    const out = new Map<string, Buffer>();
    for (const entry of entries) {
      if (!wanted(entry.fileName)) continue;
      if (entry.isEncrypted()) throw new ExtractionError('FILE_PASSWORD_PROTECTED', 'encrypted zip entry');
      out.set(entry.fileName, await readEntry(zip, entry));
    }
    return out;
  } finally {
    zip.close();
  }
}
