import type { SourceItem } from '../../db/schema/index.ts';
import type { SourceEntry } from './source-client.ts';

/**
 * The files below `folderId`, with their paths relative to it: each item's parents are followed by id (delta gives
 * no paths; a renamed folder returns only itself), and an item whose parents do not reach the folder is not in it.
 */
export function filesBelow(
  items: Record<string, SourceItem>,
  folderId: string,
): Array<SourceEntry & { id: string }> {
  const paths = pathsBelow(items, folderId);
  const entries: Array<SourceEntry & { id: string }> = [];
  for (const [id, path] of paths) {
    const item = items[id];
    if (item && !item.folder && id !== folderId)
      entries.push({ id, path, sizeBytes: item.size, version: item.version });
  }
  return entries;
}

/** The paths below `folderId` of the items (folders too) whose parents reach it; the folder itself is ''. */
export function pathsBelow(items: Record<string, SourceItem>, folderId: string): Map<string, string> {
  const paths = new Map<string, string | null>([[folderId, '']]);
  const pathOf = (id: string, depth: number): string | null => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const item = items[id];
    if (!item?.parentId || depth > 64) return null;
    const parent = pathOf(item.parentId, depth + 1);
    const path = parent === null ? null : parent ? `${parent}/${item.name}` : item.name;
    paths.set(id, path);
    return path;
  };
  const below = new Map<string, string>([[folderId, '']]);
  for (const id of Object.keys(items)) {
    const path = pathOf(id, 0);
    if (path) below.set(id, path);
  }
  return below;
}
