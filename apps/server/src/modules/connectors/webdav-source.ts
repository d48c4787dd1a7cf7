import type { Readable } from 'node:stream';
import { createClient, type FileStat } from 'webdav';
import { outboundAgents } from '../outbound/outbound-agents.ts';
import type { OutboundPolicy } from '../outbound/outbound-fetch.ts';
import { type SourceClient, type SourceEntry, SourceError, sourceFailure } from './source-client.ts';

/** Most folders one listing walks: a larger tree is refused rather than read without end. */
const MAX_FOLDERS = 2000;

export interface WebDavSettings {
  url: string;
  userName: string;
  password: string;
  /** Below the URL, without slashes at either end ('' for the URL itself). */
  folder: string;
}

/**
 * A WebDAV folder (Nextcloud, ownCloud, Synology, QNAP, Apache mod_dav ...) through the `webdav` client, every
 * connection through the outbound policy. The tree is listed one folder at a time (Depth: 1): servers commonly refuse
 * `Depth: infinity` (Apache's DavDepthInfinity is off by default, Nextcloud does not offer it).
 */
export function webdavSource(settings: WebDavSettings, policy: OutboundPolicy): SourceClient {
  const client = createClient(settings.url, {
    username: settings.userName,
    password: settings.password,
    ...outboundAgents(policy),
  });
  const base = `/${settings.folder}`.replace(/\/+$/, '');
  const relative = (filename: string) => filename.slice(base.length).replace(/^\/+/, '');

  return {
    async list() {
      const entries: SourceEntry[] = [];
      const pending = [base || '/'];
      let folders = 0;
      try {
        while (pending.length > 0) {
          const folder = pending.shift()!;
          if (++folders > MAX_FOLDERS) throw new SourceError('protocol', `more than ${MAX_FOLDERS} folders`);
          const items = (await client.getDirectoryContents(folder)) as FileStat[];
          for (const item of items) {
            if (item.type === 'directory') pending.push(item.filename);
            else
              entries.push({
                path: relative(item.filename),
                sizeBytes: item.size,
                // A weak ETag (W/) turns strong a second after a write: the same version either way.
                version: item.etag
                  ? `etag:${item.etag.replace(/^W\//, '')}`
                  : `stat:${item.size}:${item.lastmod}`,
              });
          }
        }
      } catch (error) {
        throw sourceFailure(error);
      }
      return entries;
    },
    async read(path) {
      return client.createReadStream(`${base}/${path}`) as unknown as Readable;
    },
  };
}
