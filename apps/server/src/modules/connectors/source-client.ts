import type { Readable } from 'node:stream';
import type { ConnectorFailure } from '@werkwissen/shared';
import { isBlockedByPolicy } from '../outbound/outbound-fetch.ts';

/** One file of a source, as its listing says it is now. */
export interface SourceEntry {
  /** Its path below the connector's folder, with `/` between folders and no leading slash. */
  path: string;
  sizeBytes: number;
  /**
   * What changes whenever the content does: the ETag (WebDAV, Graph's cTag, Drive's md5Checksum), else size and
   * modification time. An unchanged version is never downloaded again.
   */
  version: string;
  /** Its id at a source that has ids (a Microsoft 365 drive item, a Google Drive file): a moved file keeps it. */
  id?: string;
}

/**
 * What the sync needs of a source, whatever it is: a listing of the files below the connector's folder now, and one
 * file's content. WebDAV lists the folder tree (`webdav-source.ts`); a source with a change feed (Microsoft Graph's
 * delta query, Google Drive's changes API) answers `list` from its feed and the last listing instead, so that the
 * sync itself (added, changed, renamed, removed) stays one piece of code for all of them (`graph-source.ts`,
 * `google-drive-source.ts`).
 */
export interface SourceClient {
  list(): Promise<SourceEntry[]>;
  read(path: string): Promise<Readable>;
}

/** A failure of the source as a whole, with the reason the connector shows. */
export class SourceError extends Error {
  readonly reason: ConnectorFailure;
  constructor(reason: ConnectorFailure, message: string) {
    super(message);
    this.reason = reason;
    this.name = 'SourceError';
  }
}

/** The reason of a failed request to a source: its HTTP status, the outbound policy, or the network. */
export function sourceFailure(error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  const message = String((error as Error)?.message ?? error).slice(0, 500);
  if (isBlockedByPolicy(error)) return new SourceError('blocked', message);
  const status = (error as { status?: unknown; response?: { status?: unknown } })?.status;
  if (status === 401 || status === 403) return new SourceError('auth', message);
  if (status === 404 || status === 409) return new SourceError('not-found', message);
  if (typeof status === 'number') return new SourceError(status >= 500 ? 'unreachable' : 'protocol', message);
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } })?.code ??
    (error as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR)/.test(code))
    return new SourceError('unreachable', message);
  if (/fetch failed|socket|network|timeout/i.test(message)) return new SourceError('unreachable', message);
  return new SourceError('protocol', message);
}
