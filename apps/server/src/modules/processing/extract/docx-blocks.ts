import mammoth from 'mammoth';
import { type Block, ExtractionError } from './blocks.ts';
import { htmlToBlocks } from './html-blocks.ts';

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** A .docx through mammoth's HTML (which keeps tables, unlike its markdown output). */
export async function docxToBlocks(buffer: Buffer): Promise<Block[]> {
  if (buffer.subarray(0, 8).equals(OLE_MAGIC)) {
    throw new ExtractionError('FILE_PASSWORD_PROTECTED', 'encrypted Office document');
  }
  try {
    const { value } = await mammoth.convertToHtml({ buffer });
    return htmlToBlocks(value);
  } catch (error) {
    throw new ExtractionError('FILE_CORRUPT', (error as Error).message);
  }
}
