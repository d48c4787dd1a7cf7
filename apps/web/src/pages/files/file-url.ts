/** Where the original of a file opens; a PDF opens at a page with `#page=N`. */
export const fileContentUrl = (fileId: string, page?: number | null) =>
  `/api/v1/files/${encodeURIComponent(fileId)}/content${page != null ? `#page=${page}` : ''}`;
