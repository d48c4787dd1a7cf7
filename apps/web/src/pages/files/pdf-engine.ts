/**
 * pdf.js for the in-app viewer, loaded only by the viewer page (`bench:web` measures the sign-in pages without it).
 *
 * A document is parsed and drawn, never run: no scripting (only pdf.js's viewer has a scripting sandbox, and it is not
 * used), no `eval` (pdf.js 6 has no code that uses it, and the app's CSP forbids it), no XFA forms, no annotation layer
 * (links and form fields inside a PDF are drawn, not clickable). The worker, the CMaps and the standard fonts are
 * bundled by Vite from the package and served by the app itself (CSP `script-src 'self'; worker-src 'self' blob:`).
 * WebAssembly decoders stay off because the CSP has no `wasm-unsafe-eval`.
 */
import {
  GlobalWorkerOptions,
  getDocument,
  type PDFDocumentProxy,
  type PDFPageProxy,
  TextLayer,
  VerbosityLevel,
} from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

const byName = (urls: Record<string, string>) =>
  Object.fromEntries(Object.entries(urls).map(([path, url]) => [path.slice(path.lastIndexOf('/') + 1), url]));
const BUNDLED: Record<string, Record<string, string>> = {
  cMapUrl: byName(
    import.meta.glob<string>('@pdfjs-dist-data/cmaps/*.bcmap', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
  standardFontDataUrl: byName(
    import.meta.glob<string>(
      ['@pdfjs-dist-data/standard_fonts/*.pfb', '@pdfjs-dist-data/standard_fonts/*.ttf'],
      {
        query: '?url',
        import: 'default',
        eager: true,
      },
    ),
  ),
};

/** Hands pdf.js the bundled CMaps and standard fonts by file name (instead of a folder URL the build does not keep). */
class BundledDataFactory {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const url = BUNDLED[kind]?.[filename];
    if (!url) throw new Error(`No bundled ${kind} data named ${filename}`);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`Loading ${filename} failed with ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }
}

export type { PDFDocumentProxy, PDFPageProxy };

/** Parses a PDF's bytes (handed to the worker, so `data` is unusable afterwards). */
export function openPdf(data: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    data,
    enableXfa: false,
    useWasm: false,
    useWorkerFetch: false,
    BinaryDataFactory: BundledDataFactory,
    cMapPacked: true,
    verbosity: VerbosityLevel.ERRORS,
  }).promise;
}

/** Why a document could not be opened: damaged or not a PDF, protected by a password, or anything else. */
export function pdfErrorKind(error: unknown): 'invalid' | 'password' | 'other' {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'InvalidPDFException') return 'invalid';
  if (name === 'PasswordException') return 'password';
  return 'other';
}

/**
 * Draws a page onto a canvas at `scale` CSS pixels per PDF point (sharp on high-density screens) and lays its text
 * out invisibly over it, so that it can be selected, searched and read by screen readers. `cancel` stops both.
 */
export function drawPage(
  page: PDFPageProxy,
  canvas: HTMLCanvasElement,
  textLayer: HTMLDivElement,
  scale: number,
): { done: Promise<void>; cancel(): void } {
  const viewport = page.getViewport({ scale });
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  // The page's box sets the size: a page drawn at an earlier zoom stretches until it is drawn again.
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  const render = page.render({
    canvas,
    viewport,
    transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
  });
  textLayer.replaceChildren();
  const text = new TextLayer({ textContentSource: page.streamTextContent(), container: textLayer, viewport });
  return {
    done: Promise.all([render.promise, text.render()]).then(() => undefined),
    cancel() {
      render.cancel();
      text.cancel();
    },
  };
}
