import { type ErrorBody, fileContracts, type UploadResult } from '@werkwissen/shared';
import { ApiError, readCookie, renewAfter401, sessionEpoch } from './http.ts';

export interface UploadOptions {
  /** Called while the body is sent, with the share sent so far (0 to 1). */
  onProgress?(share: number): void;
  signal?: AbortSignal;
}

interface Answer {
  status: number;
  body: unknown;
}

function send(url: string, files: File[], options: UploadOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('The upload was aborted.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('x-csrf-token', readCookie('ww_csrf') ?? '');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', ''));
    xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    xhr.send(form);
  });
}

/**
 * Uploads files into a division as multipart/form-data (one `files` part per file), with upload progress, the CSRF
 * header and one silent session renewal like `call()`. Resolves with the per-file results (201); when the server
 * refuses the whole upload, rejects with an ApiError whose details may carry the same `results`.
 */
export async function uploadFiles(
  divisionId: string,
  files: File[],
  options: UploadOptions = {},
): Promise<UploadResult> {
  const url = `/api/v1${fileContracts.upload.path.replace(':divisionId', encodeURIComponent(divisionId))}`;
  const sentIn = sessionEpoch();
  let answer = await send(url, files, options);
  if (answer.status === 401) {
    const code = (answer.body as ErrorBody | null)?.error?.code;
    if (await renewAfter401(code, sentIn)) {
      options.onProgress?.(0);
      answer = await send(url, files, options);
    }
  }
  if (answer.status >= 200 && answer.status < 300) return answer.body as UploadResult;
  const error = (answer.body as ErrorBody | null)?.error;
  throw new ApiError(
    answer.status,
    error?.code ?? (answer.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INTERNAL'),
    error?.message ?? '',
    error?.details,
  );
}

/** The per-file results a refused upload carries in its error details, if any. */
export function rejectedResults(error: unknown): UploadResult['results'] | null {
  if (!(error instanceof ApiError)) return null;
  const results = error.details?.results;
  return Array.isArray(results) && results.length > 0 ? (results as UploadResult['results']) : null;
}
