import { type Area, areaOfPath } from '@werkwissen/shared';

/** The original of a file as the server keeps it; `download` asks for it as an attachment. A PDF always is one. */
export const fileContentUrl = (fileId: string, options: { download?: boolean } = {}) =>
  `/api/v1/files/${encodeURIComponent(fileId)}/content${options.download ? '?download=1' : ''}`;

/** The app's own PDF viewer (pdf.js, scripting off) for a file, at a page; employees have it in their area. */
export function fileViewerUrl(fileId: string, page?: number | null, area: Area = 'user'): string {
  const base = `${area === 'employee' ? '/employee' : ''}/files/${encodeURIComponent(fileId)}/view`;
  return page != null && page >= 1 ? `${base}?page=${page}` : base;
}

/**
 * Where a link to a file goes from the page at `pathname`: a PDF opens in the viewer (at the cited page), anything
 * else as the original. Browsers' own PDF viewers run a document's scripts, so a PDF is never opened from the
 * server directly (the server sends it as a download). Only PDFs have pages, so a passage with a page is a PDF's.
 */
export function fileLink(
  file: { fileId: string; pdf: boolean; page?: number | null },
  pathname: string,
): string {
  return file.pdf || file.page != null
    ? fileViewerUrl(file.fileId, file.page, areaOfPath(pathname))
    : fileContentUrl(file.fileId);
}
