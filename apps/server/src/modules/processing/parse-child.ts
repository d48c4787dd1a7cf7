/**
 * The parser process: reads one document at a time on request of the worker, under the memory limit the worker
 * started it with. A document that exhausts memory kills only this process; the worker reports it and starts anew.
 * OCR programs run as its children, each with its own time limit; their progress goes to the worker.
 */
import type { FileKind } from '@werkwissen/shared';
import { ExtractionError } from './extract/blocks.ts';
import { extractDocument } from './extract/extract-document.ts';
import type { OcrOptions } from './extract/ocr.ts';
import { warmUpReaders } from './extract/warm-up.ts';

interface Request {
  id: number;
  path: string;
  kind: FileKind;
  ocr: OcrOptions;
}

process.on('message', async (message: Request) => {
  try {
    const result = await extractDocument(message.path, message.kind, {
      ocr: message.ocr,
      onProgress: (done, total) => process.send?.({ id: message.id, progress: { done, total } }),
    });
    process.send?.({ id: message.id, ok: true, result });
  } catch (error) {
    const code = error instanceof ExtractionError ? error.code : 'FILE_CORRUPT';
    process.send?.({
      id: message.id,
      ok: false,
      code,
      detail: String((error as Error)?.message ?? error).slice(0, 500),
    });
  }
});
// The worker is gone (even killed): nothing more will be asked of this process, nor of the OCR programs it started
// (its process group: the worker started it as the group's leader).
process.on('disconnect', () => {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    // Not a group leader: there is no group of its own to stop.
  }
  process.exit(0);
});
// Started ahead of the first document (`--warm-up`): ready once pdf.js has loaded, so that no document waits for the
// load. A failed warm-up leaves the load to the first PDF, which then reports what is wrong.
if (process.argv.includes('--warm-up')) await warmUpReaders().catch(() => {});
process.send?.({ ready: true });
