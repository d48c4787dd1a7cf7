import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { connectors, type SourceItem } from '../../db/schema/index.ts';

import type { ResolvedMicrosoftApp } from './microsoft-app.service.ts';
import { MICROSOFT_SCOPE, microsoftOAuth } from './microsoft-oauth.ts';
import { connectorApi, SourceHttpError } from './source-api.ts';
import { type SourceClient, SourceError, sourceFailure } from './source-client.ts';
import { filesBelow } from './source-items.ts';
import type { ConnectorRow } from './sync.service.ts';

/** Most items of a drive the connector keeps track of, and most delta pages one sync reads. */
const MAX_ITEMS = 100_000;
const MAX_PAGES = 5_000;

/** A driveItem as the delta feed returns it (only what the sync reads). */
interface DriveItem {
  id: string;
  name?: string;
  size?: number;
  cTag?: string;
  eTag?: string;
  parentReference?: { id?: string };
  file?: { hashes?: { quickXorHash?: string; sha256Hash?: string; sha1Hash?: string } };
  folder?: object;
  root?: object;
  deleted?: object;
}

interface DeltaPage {
  value?: DriveItem[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/**
 * What changes whenever the content does: the cTag (OneDrive for Business leaves it out of delta answers, then the
 * content hash with the size), else the eTag (which also changes on a rename: the rename is still found by item id).
 */
export function versionOf(item: DriveItem): string {
  if (item.cTag) return `ctag:${item.cTag}`;
  const hash =
    item.file?.hashes?.sha256Hash ?? item.file?.hashes?.quickXorHash ?? item.file?.hashes?.sha1Hash;
  if (hash) return `hash:${hash}:${item.size ?? 0}`;
  return `etag:${item.eTag ?? ''}`;
}

/** The drive's items folded with one delta page: deleted ones dropped, the others as they are now (by id). */
export function applyDelta(items: Record<string, SourceItem>, page: DriveItem[]): void {
  for (const item of page) {
    if (item.deleted) {
      delete items[item.id];
      continue;
    }
    items[item.id] = {
      name: item.name ?? items[item.id]?.name ?? '',
      parentId: item.root ? null : (item.parentReference?.id ?? null),
      folder: Boolean(item.folder || item.root),
      size: item.size ?? 0,
      version: item.folder || item.root ? '' : versionOf(item),
    };
  }
}

/**
 * A folder of a Microsoft 365 drive (a SharePoint document library, a OneDrive) through Graph's delta query on the
 * drive: the first sync enumerates the drive, each later one reads only what changed since the stored delta link
 * (paged by `@odata.nextLink`), folding it into the items kept by id on the connector. `list()` stores the new delta
 * link with the items at once: the sync diffs the whole listing against the division's files, so a sync that stops
 * halfway loses nothing by it. A delta link Graph no longer honours (410) starts a fresh enumeration. Files are
 * downloaded through `/content` by item id.
 */
export function graphSource(
  ctx: AppContext,
  app: ResolvedMicrosoftApp,
  connector: ConnectorRow,
  signal?: AbortSignal,
): SourceClient {
  const api = connectorApi(ctx, microsoftOAuth(ctx, app), connector, {
    service: 'Microsoft Graph',
    scope: MICROSOFT_SCOPE,
    signal,
  });
  const driveUrl = connector.url.replace(/\/root:\/?$/, '');
  const folderId = connector.remoteFolderId;
  const idsByPath = new Map<string, string>();

  return {
    async list() {
      if (!folderId) throw new SourceError('protocol', 'a Microsoft 365 connector without its folder id');
      const fresh = `${driveUrl}/root/delta`;
      let items: Record<string, SourceItem> = connector.syncCursor
        ? { ...(connector.sourceItems ?? {}) }
        : {};
      let url = connector.syncCursor ?? fresh;
      let deltaLink: string | null = null;
      try {
        for (let pages = 0; !deltaLink; pages++) {
          if (pages > MAX_PAGES) throw new SourceError('protocol', `more than ${MAX_PAGES} delta pages`);
          let page: DeltaPage;
          try {
            page = await api.json<DeltaPage>(url);
          } catch (error) {
            // The delta link has expired: enumerate afresh from where Graph says (or the start).
            if (error instanceof SourceHttpError && error.status === 410) {
              items = {};
              url = error.location ?? fresh;
              continue;
            }
            throw error;
          }
          applyDelta(items, page.value ?? []);
          if (Object.keys(items).length > MAX_ITEMS)
            throw new SourceError('protocol', `more than ${MAX_ITEMS} items in the drive`);
          const next = page['@odata.nextLink'] ?? null;
          deltaLink = next ? null : (page['@odata.deltaLink'] ?? null);
          if (!next && !deltaLink)
            throw new SourceError('protocol', 'a delta page without a next or delta link');
          if (next) url = next;
        }
      } catch (error) {
        throw sourceFailure(error);
      }
      if (!items[folderId]) throw new SourceError('not-found', 'the folder is no longer in the drive');
      await ctx.db
        .update(connectors)
        .set({ syncCursor: deltaLink, sourceItems: items })
        .where(eq(connectors.id, connector.id));
      const entries = filesBelow(items, folderId);
      idsByPath.clear();
      for (const e of entries) idsByPath.set(e.path, e.id);
      return entries;
    },
    async read(path) {
      const id = idsByPath.get(path);
      if (!id) throw new SourceError('protocol', `no item listed at ${path}`);
      return api.download(`${driveUrl}/items/${encodeURIComponent(id)}/content`);
    },
  };
}
