import { type Area, areaOfPath } from '@werkwissen/shared';

/** The original of a file as the server keeps it; `download` asks for it as an attachment. A PDF always is one. */
export const fileContentUrl = (fileId: string, options: { download?: boolean } = {}) =>
  `/api/v1/files/${encodeURIComponent(fileId)}/content${options.download ? '?download=1' : ''}`;

/** The longest passage a viewer link carries (a passage is at most about 1,500 characters). */
const PASSAGE_CHARS = 2000;

/**
 * The app's own PDF viewer (pdf.js, scripting off) for a file, at a page, with the cited passage to highlight in the
 * link's fragment (which the browser keeps to itself); employees have it in their area.
 */
export function fileViewerUrl(
  fileId: string,
  page?: number | null,
  area: Area = 'user',
  passage?: string | null,
): string {
  const base = `${area === 'employee' ? '/employee' : ''}/files/${encodeURIComponent(fileId)}/view`;
  const at = page != null && page >= 1 ? `${base}?page=${page}` : base;
  return passage ? `${at}#passage=${encodeURIComponent(passage.slice(0, PASSAGE_CHARS))}` : at;
}

/**
 * Where a link to a file goes from the page at `pathname`: a PDF opens in the viewer (at the cited page, the cited
 * passage highlighted), anything
 * else as the original. Browsers' own PDF viewers run a document's scripts, so a PDF is never opened from the
 * server directly (the server sends it as a download). Only PDFs have pages, so a passage with a page is a PDF's.
 */
export function fileLink(
  file: { fileId: string; pdf: boolean; page?: number | null; passage?: string | null },
  pathname: string,
): string {
  return file.pdf || file.page != null
    ? fileViewerUrl(file.fileId, file.page, areaOfPath(pathname), file.passage)
    : fileContentUrl(file.fileId);
}
