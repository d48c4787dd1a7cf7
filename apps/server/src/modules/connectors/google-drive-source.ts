import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { connectors, type SourceItem } from '../../db/schema/index.ts';
import { googleOAuth, type ResolvedGoogleApp } from './google-app.service.ts';
import { DriveApi, itemOf } from './google-drive-api.ts';
import { connectorApi } from './source-api.ts';
import { type SourceClient, SourceError, sourceFailure } from './source-client.ts';
import { filesBelow, pathsBelow } from './source-items.ts';
import type { ConnectorRow } from './sync.service.ts';

/** Most items below the folder the connector keeps track of, most folders and change pages one sync reads. */
const MAX_ITEMS = 100_000;
const MAX_PAGES = 5_000;

/** The shared drive a connector's address names (`…/drives/<id>/`), or '' for the account's My Drive. */
const driveIdOf = (url: string) => /\/drives\/([A-Za-z0-9_-]+)\/$/.exec(url)?.[1] ?? '';

/**
 * A folder of a Google Drive (My Drive or a shared drive) through the Drive API v3. The first sync takes the changes'
 * start page token, then lists the folder tree (`'<id>' in parents`, paged); each later one reads only the changes
 * since the stored page token (paged by `nextPageToken`, closed by `newStartPageToken`) and folds them into the items
 * kept by id on the connector: a removed or trashed file goes, a moved one keeps its id (and so its history), and a
 * folder moved into the tree is listed, since its contents arrive without changes of their own. Items outside the
 * folder are dropped. `list()` stores the new page token with the items before any file is read, so a sync that stops
 * halfway is finished by the retry. Files download by id (`alt=media`); Google Docs, Sheets and Slides are exported.
 */
export function googleDriveSource(
  ctx: AppContext,
  app: ResolvedGoogleApp,
  connector: ConnectorRow,
  signal?: AbortSignal,
): SourceClient {
  const api = connectorApi(ctx, googleOAuth(ctx, app), connector, { service: 'Google Drive', signal });
  const drive = new DriveApi(api, app.driveUrl, driveIdOf(connector.url));
  const folderId = connector.remoteFolderId;
  const listed = new Map<string, { id: string; item: SourceItem }>();

  /** Adds the tree below `top` (already among the items) to the items, folder by folder. */
  async function enumerate(items: Record<string, SourceItem>, top: string) {
    const folders = [top];
    for (let walked = 0; folders.length > 0; walked++) {
      if (walked > MAX_PAGES) throw new SourceError('protocol', `more than ${MAX_PAGES} folders`);
      const parent = folders.shift()!;
      for (const file of await drive.children(parent)) {
        const item = itemOf(file);
        if (!item) continue;
        items[file.id] = { ...item, parentId: parent };
        if (item.folder) folders.push(file.id);
      }
      if (Object.keys(items).length > MAX_ITEMS)
        throw new SourceError('protocol', `more than ${MAX_ITEMS} items in the folder`);
    }
  }

  /** Folds the changes since `cursor` into the items; the page token the next sync starts from. */
  async function follow(items: Record<string, SourceItem>, root: string, cursor: string) {
    const before = new Set(pathsBelow(items, root).keys());
    let token = cursor;
    for (let pages = 0; ; pages++) {
      if (pages > MAX_PAGES) throw new SourceError('protocol', `more than ${MAX_PAGES} change pages`);
      const page = await drive.changes(token);
      for (const change of page.changes ?? []) {
        const id = change.fileId ?? change.file?.id;
        if (change.changeType === 'drive' || !id) continue;
        const item = change.removed || !change.file || change.file.trashed ? null : itemOf(change.file);
        if (id === root) {
          if (!item?.folder) throw new SourceError('not-found', 'the folder was removed from the drive');
          items[id] = { ...item, parentId: null };
        } else if (item) items[id] = item;
        else delete items[id];
      }
      if (page.newStartPageToken) {
        token = page.newStartPageToken;
        break;
      }
      if (!page.nextPageToken) throw new SourceError('protocol', 'a change page without a next page token');
      token = page.nextPageToken;
    }
    // A folder that came into the tree (moved in, or restored) brings its contents without changes of their own.
    for (const id of pathsBelow(items, root).keys())
      if (items[id]?.folder && !before.has(id)) await enumerate(items, id);
    return token;
  }

  return {
    async list() {
      if (!folderId) throw new SourceError('protocol', 'a Google Drive connector without its folder id');
      let items: Record<string, SourceItem>;
      let cursor: string;
      try {
        if (connector.syncCursor) {
          items = { ...(connector.sourceItems ?? {}) };
          cursor = await follow(items, folderId, connector.syncCursor);
        } else {
          // The token first: what changes while the tree is listed is read again by the next sync.
          cursor = await drive.startPageToken();
          const file = await drive.file(folderId);
          const folder = file.trashed ? null : itemOf(file);
          if (!folder?.folder) throw new SourceError('not-found', 'the folder is no longer in the drive');
          items = { [folderId]: { ...folder, parentId: null } };
          await enumerate(items, folderId);
        }
      } catch (error) {
        throw sourceFailure(error);
      }
      const below = pathsBelow(items, folderId);
      for (const id of Object.keys(items)) if (!below.has(id)) delete items[id];
      await ctx.db
        .update(connectors)
        .set({ syncCursor: cursor, sourceItems: items })
        .where(eq(connectors.id, connector.id));
      const entries = filesBelow(items, folderId);
      listed.clear();
      for (const e of entries) listed.set(e.path, { id: e.id, item: items[e.id]! });
      return entries;
    },
    async read(path) {
      const found = listed.get(path);
      if (!found) throw new SourceError('protocol', `no file listed at ${path}`);
      return drive.content(found.id, found.item);
    },
  };
}
