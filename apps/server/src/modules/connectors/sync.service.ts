import { randomUUID } from 'node:crypto';
import { type ConnectorSyncResult, type FileKind, UPLOAD_ACCEPT } from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { isUniqueViolation } from '../../db/constraint-violation.ts';
import { type connectors, files } from '../../db/schema/index.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import type { StoredObject } from '../files/file-storage.ts';
import { queueKnowledgeAnalysis } from '../processing/analyze.job.ts';
import { cleanFileName, extensionOf } from '../processing/extract/file-name.ts';
import { MIME_BY_KIND, sniffFileKind } from '../processing/extract/sniff-type.ts';
import { extractFileJob, sendFileStep } from '../processing/process-file.jobs.ts';
import { nextGeneration } from './connectors.queries.ts';
import { type SourceClient, type SourceEntry, SourceError } from './source-client.ts';

export type ConnectorRow = typeof connectors.$inferSelect;

/** Which paths a sync added, changed, renamed and removed: what the activity log keeps of it. */
export interface SyncPaths {
  added: string[];
  changed: string[];
  renamed: Array<{ from: string; to: string }>;
  removed: string[];
}

export interface SyncOutcome {
  result: ConnectorSyncResult;
  paths: SyncPaths;
  /** Why the sync stopped before its end (the plan's storage is full), else null. */
  stoppedBy: SourceError | null;
}

/** The extensions the product reads: without a filter of its own, a connector takes these. */
const SUPPORTED = new Set(UPLOAD_ACCEPT.split(',').map((e) => e.replace(/^\./, '')));

/** Files of the connector as the division holds them. */
interface Known {
  id: string;
  path: string;
  version: string | null;
  sha256: string;
  sizeBytes: number;
  storageKey: string;
  itemId: string | null;
}

/** Whether a listed file is one the connector takes: not hidden, of a chosen (or else a supported) type. */
export function wanted(connector: Pick<ConnectorRow, 'fileTypes'>, path: string): boolean {
  if (path.split('/').some((part) => part.startsWith('.'))) return false;
  const extension = extensionOf(path);
  return connector.fileTypes.length > 0 ? connector.fileTypes.includes(extension) : SUPPORTED.has(extension);
}

/**
 * One sync of a connector against what its source lists now. Unchanged files (same version) are not read; a file
 * whose version changed is read, and reprocessed only when its content did (same file row: a new processing run,
 * the published passages answer until it is ready). A listed path the division does not hold is a rename when a
 * vanished file had the same item id (a source with ids: Microsoft 365, Google Drive), the same version or the same
 * content (the row moves, its history stays; moved by id with another version, it is also read as changed), else it
 * is added. What vanished otherwise is deleted with its passages. Files that failed are not read again while their version stands.
 * The plan's storage limit is taken per file; when it is full the sync stops (`SourceError('quota')`) after having
 * counted what it did.
 */
export async function runSync(
  ctx: AppContext,
  connector: ConnectorRow,
  source: SourceClient,
  signal: AbortSignal,
): Promise<SyncOutcome> {
  const listed = (await source.list()).filter((e) => wanted(connector, e.path));
  const known = await ctx.db
    .select({
      id: files.id,
      path: files.sourcePath,
      version: files.sourceVersion,
      sha256: files.sha256,
      sizeBytes: files.sizeBytes,
      storageKey: files.storageKey,
      itemId: files.sourceItemId,
    })
    .from(files)
    .where(eq(files.connectorId, connector.id));
  const byPath = new Map(known.filter((k): k is Known => k.path !== null).map((k) => [k.path, k]));
  const earlierFailures = new Map((connector.lastResult?.failures ?? []).map((f) => [f.path, f]));
  const result: ConnectorSyncResult = {
    added: 0,
    changed: 0,
    renamed: 0,
    removed: 0,
    unchanged: 0,
    failures: [],
  };
  const paths: SyncPaths = { added: [], changed: [], renamed: [], removed: [] };
  const fail = (entry: SourceEntry, code: string) =>
    result.failures.push({ path: entry.path, code, version: entry.version });

  const listedByPath = new Map(listed.map((e) => [e.path, e]));
  /** Another item now at a file's path (a source with ids): the file is not that item. */
  const otherItem = (file: Known, entry: SourceEntry | undefined) =>
    Boolean(entry?.id && file.itemId && entry.id !== file.itemId);
  const gone = [...byPath.values()].filter(
    (k) => !listedByPath.has(k.path) || otherItem(k, listedByPath.get(k.path)),
  );
  const changed: Array<{ entry: SourceEntry; file: Known }> = [];
  const fresh: SourceEntry[] = [];
  for (const entry of listed) {
    const atPath = byPath.get(entry.path);
    const file = atPath && !otherItem(atPath, entry) ? atPath : undefined;
    const failed = earlierFailures.get(entry.path);
    if (file && file.version === entry.version) result.unchanged++;
    else if (failed && failed.version === entry.version) result.failures.push(failed);
    else if (file) changed.push({ entry, file });
    else fresh.push(entry);
  }

  const staged = new Map<string, StoredObject>();
  try {
    // Moves by item id: the same item under another path (and, with another version, changed as well).
    for (const entry of [...fresh]) {
      const match = entry.id ? gone.find((g) => g.itemId === entry.id) : undefined;
      if (!match) continue;
      paths.renamed.push({ from: match.path, to: entry.path });
      const same = match.version === entry.version;
      await moveFile(ctx, match, entry, same);
      if (!same) changed.push({ entry, file: match });
      gone.splice(gone.indexOf(match), 1);
      fresh.splice(fresh.indexOf(entry), 1);
      result.renamed++;
    }
    // Renames by version: the same ETag (or size and time) under another path is the same file, not read at all.
    for (const entry of [...fresh]) {
      const match = gone.find((g) => g.version === entry.version && g.sizeBytes === entry.sizeBytes);
      if (!match) continue;
      paths.renamed.push({ from: match.path, to: entry.path });
      await moveFile(ctx, match, entry, true);
      gone.splice(gone.indexOf(match), 1);
      fresh.splice(fresh.indexOf(entry), 1);
      result.renamed++;
    }
    // Renames by content: while something vanished, a new path is read and compared with it.
    for (const entry of [...fresh]) {
      if (gone.length === 0) break;
      if (signal.aborted) throw new SourceError('interrupted', 'handed back');
      const object = await ctx.storage.stage(await source.read(entry.path));
      staged.set(entry.path, object);
      const match = gone.find((g) => g.sha256 === object.sha256);
      if (!match) continue;
      paths.renamed.push({ from: match.path, to: entry.path });
      await moveFile(ctx, match, entry, true);
      gone.splice(gone.indexOf(match), 1);
      fresh.splice(fresh.indexOf(entry), 1);
      result.renamed++;
    }
    // What vanished goes first, so that its space is free for what is added.
    for (const file of gone) {
      const [row] = await ctx.db
        .delete(files)
        .where(and(eq(files.id, file.id), eq(files.connectorId, connector.id)))
        .returning({ key: files.storageKey });
      if (row) await removeStored(ctx, [row.key], 'original of a file removed at its source');
      paths.removed.push(file.path);
      result.removed++;
    }
    const maxBytes = ctx.config.UPLOAD_MAX_MB * 1024 * 1024;
    for (const { entry, file } of changed) {
      if (signal.aborted) throw new SourceError('interrupted', 'handed back');
      if (entry.sizeBytes > maxBytes) {
        fail(entry, 'FILE_TOO_LARGE');
        continue;
      }
      const object = await ctx.storage.stage(await source.read(entry.path));
      staged.set(entry.path, object);
      const outcome = await replaceContent(ctx, connector, file, entry, object);
      if (outcome === 'same') result.unchanged++;
      else if (outcome === 'replaced') {
        result.changed++;
        paths.changed.push(entry.path);
      } else fail(entry, outcome);
    }
    for (const entry of fresh) {
      if (signal.aborted) throw new SourceError('interrupted', 'handed back');
      if (entry.sizeBytes > maxBytes) {
        fail(entry, 'FILE_TOO_LARGE');
        continue;
      }
      const object = staged.get(entry.path) ?? (await ctx.storage.stage(await source.read(entry.path)));
      staged.set(entry.path, object);
      const outcome = await addFile(ctx, connector, entry, object);
      if (outcome === 'added') {
        result.added++;
        paths.added.push(entry.path);
      } else fail(entry, outcome);
    }
    return { result, paths, stoppedBy: null };
  } catch (error) {
    if (error instanceof AppError && error.code === 'QUOTA_EXCEEDED')
      return { result, paths, stoppedBy: new SourceError('quota', 'storage limit reached') };
    throw error;
  } finally {
    // What was committed left staging; the rest goes.
    await removeStored(
      ctx,
      [...staged.values()].map((o) => o.key),
      'staged file of a sync',
    );
    if (result.removed + result.changed + result.added > 0) await queueKnowledgeAnalysis(ctx);
  }
}

/**
 * A rename: the row takes the new path and name, and the version when it is the same content (else the change is read
 * after it); its passages and history stay.
 */
async function moveFile(
  ctx: AppContext,
  file: Known,
  entry: SourceEntry,
  sameContent: boolean,
): Promise<void> {
  await ctx.db
    .update(files)
    .set({
      sourcePath: entry.path,
      ...(sameContent ? { sourceVersion: entry.version } : {}),
      sourceItemId: entry.id ?? file.itemId,
      name: cleanFileName(entry.path),
      updatedAt: new Date(),
    })
    .where(eq(files.id, file.id));
  file.path = entry.path;
}

/** Checks a read file: not empty, of a type the product reads. */
async function kindOf(ctx: AppContext, object: StoredObject, path: string): Promise<FileKind | string> {
  if (object.sizeBytes === 0) return 'FILE_EMPTY';
  const sniffed = await ctx.storage.withLocalFile(object.key, (local) =>
    sniffFileKind(local, cleanFileName(path)),
  );
  return sniffed.kind ?? 'FILE_TYPE_UNSUPPORTED';
}

const KINDS = new Set(Object.keys(MIME_BY_KIND));
const isKind = (value: string): value is FileKind => KINDS.has(value);

/** A changed version: the same content only records the version; new content starts a new processing run. */
async function replaceContent(
  ctx: AppContext,
  connector: ConnectorRow,
  file: Known,
  entry: SourceEntry,
  object: StoredObject,
): Promise<'same' | 'replaced' | string> {
  if (object.sha256 === file.sha256) {
    await ctx.db
      .update(files)
      .set({ sourceVersion: entry.version, sourceItemId: entry.id ?? file.itemId })
      .where(eq(files.id, file.id));
    return 'same';
  }
  const kind = await kindOf(ctx, object, entry.path);
  if (!isKind(kind)) return kind;
  const storageKey = `${connector.companyId}/${file.id}-${randomUUID()}`;
  await ctx.storage.commit(object.key, storageKey);
  let generation: number;
  try {
    generation = await ctx.db.transaction(async (tx) => {
      const growth = object.sizeBytes - file.sizeBytes;
      if (growth > 0)
        await takeLimitSlot(ctx, tx, {
          companyId: connector.companyId,
          limit: 'storageBytes',
          amount: growth,
          language: 'en',
        });
      const [row] = await tx
        .update(files)
        .set({
          storageKey,
          sha256: object.sha256,
          sizeBytes: object.sizeBytes,
          kind,
          mimeType: MIME_BY_KIND[kind],
          sourceVersion: entry.version,
          sourceItemId: entry.id ?? file.itemId,
          status: 'queued',
          progress: 0,
          errorCode: null,
          errorDetail: null,
          steps: {},
          processingGeneration: nextGeneration,
          updatedAt: new Date(),
        })
        .where(eq(files.id, file.id))
        .returning({ generation: files.processingGeneration });
      return row!.generation;
    });
  } catch (error) {
    await ctx.storage.remove(storageKey);
    if (isUniqueViolation(error)) return 'FILE_DUPLICATE';
    throw error;
  }
  await removeStored(ctx, [file.storageKey], 'original of a file changed at its source');
  await sendFileStep(ctx, extractFileJob, file.id, generation);
  return 'replaced';
}

/** A new file: stored under its own key, its row inserted with its storage slot taken, and queued. */
async function addFile(
  ctx: AppContext,
  connector: ConnectorRow,
  entry: SourceEntry,
  object: StoredObject,
): Promise<'added' | string> {
  const kind = await kindOf(ctx, object, entry.path);
  if (!isKind(kind)) return kind;
  const fileId = randomUUID();
  const storageKey = `${connector.companyId}/${fileId}`;
  await ctx.storage.commit(object.key, storageKey);
  try {
    await ctx.db.transaction(async (tx) => {
      await takeLimitSlot(ctx, tx, {
        companyId: connector.companyId,
        limit: 'storageBytes',
        amount: object.sizeBytes,
        language: 'en',
      });
      await tx.insert(files).values({
        id: fileId,
        companyId: connector.companyId,
        divisionId: connector.divisionId,
        name: cleanFileName(entry.path),
        sizeBytes: object.sizeBytes,
        mimeType: MIME_BY_KIND[kind],
        kind,
        sha256: object.sha256,
        storageKey,
        connectorId: connector.id,
        sourcePath: entry.path,
        sourceVersion: entry.version,
        sourceItemId: entry.id ?? null,
      });
    });
  } catch (error) {
    await ctx.storage.remove(storageKey);
    if (isUniqueViolation(error)) return 'FILE_DUPLICATE';
    throw error;
  }
  await sendFileStep(ctx, extractFileJob, fileId, 0);
  return 'added';
}
