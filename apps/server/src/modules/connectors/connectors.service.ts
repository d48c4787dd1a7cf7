import type {
  Connector,
  ConnectorFailure,
  ConnectorKind,
  connectorCreateSchema,
  connectorUpdateSchema,
  Language,
} from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { connectorAccess } from '../../access/connector.access.ts';
import { divisionAccess } from '../../access/division.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { connectors, divisions } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { assertPlanActive } from '../billing/company-plan.ts';
import { fileCounts } from './connectors.queries.ts';
import { failureText } from './failure-text.ts';
import { type SourceError, sourceFailure } from './source-client.ts';
import type { ConnectorRow } from './sync.service.ts';
import { requestSync } from './sync-queue.ts';
import { webdavSource } from './webdav-source.ts';

type ConnectorInput = z.output<typeof connectorCreateSchema>;
type ConnectorChanges = z.output<typeof connectorUpdateSchema>;

function present(row: ConnectorRow, fileCount: number, lang: Language): Connector {
  const code = row.lastError as ConnectorFailure | null;
  return {
    id: row.id,
    divisionId: row.divisionId,
    kind: row.kind,
    name: row.name,
    url: row.url,
    userName: row.userName,
    folder: row.folder,
    fileTypes: row.fileTypes,
    intervalMinutes: row.intervalMinutes,
    status: row.status,
    syncState: row.syncState,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    lastResult: row.lastResult ?? null,
    lastError: code ? failureText(lang, code, row.kind) : null,
    lastErrorCode: code,
    failureCount: row.failureCount,
    fileCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The division's connectors the actor may read (404 for a division they may not read). */
export async function listConnectors(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
): Promise<Connector[]> {
  const [division] = await ctx.db
    .select({ id: divisions.id })
    .from(divisions)
    .where(and(eq(divisions.id, divisionId), divisionAccess.where(actor, 'read')));
  if (!division) throw notFound();
  const rows = await ctx.db
    .select({ row: connectors, files: fileCounts })
    .from(connectors)
    .where(and(eq(connectors.divisionId, divisionId), connectorAccess.where(actor, 'read')))
    .orderBy(connectors.createdAt, connectors.id);
  return rows.map((r) => present(r.row, r.files, actor.language));
}

/** One connector the actor may `action` (404 when they may not read it, 403 when they may read but not act). */
async function loadConnector(
  ctx: AppContext,
  actor: Actor,
  connectorId: string,
  action: 'read' | 'update' | 'delete',
) {
  if (action !== 'read') await connectorAccess.authorize(ctx.db, actor, action, connectorId);
  const [found] = await ctx.db
    .select({ row: connectors, files: fileCounts })
    .from(connectors)
    .where(and(eq(connectors.id, connectorId), connectorAccess.where(actor, action)));
  if (!found) throw notFound();
  return found;
}

export async function getConnector(ctx: AppContext, actor: Actor, connectorId: string): Promise<Connector> {
  const found = await loadConnector(ctx, actor, connectorId, 'read');
  return present(found.row, found.files, actor.language);
}

/** The refusal of a source that cannot be read, with the reason in the caller's language. */
export function unreachable(failure: SourceError, lang: Language, kind: ConnectorKind): AppError {
  return new AppError('CONNECTOR_UNREACHABLE', {
    reason: failure.reason,
    reasonText: failureText(lang, failure.reason, kind),
  });
}

/** The division the actor may connect a source to, with its company (404 unreadable, 403 without the permission). */
export async function connectableDivision(ctx: AppContext, actor: Actor, divisionId: string) {
  const [division] = await ctx.db
    .select({ id: divisions.id, companyId: divisions.companyId })
    .from(divisions)
    .where(and(eq(divisions.id, divisionId), divisionAccess.where(actor, 'read')));
  if (!division) throw notFound();
  connectorAccess.assertCan(actor, 'create', { companyId: division.companyId, divisionId });
  await assertPlanActive(ctx, division.companyId);
  return division;
}

/**
 * Connects a source to a division: its address and login are tried first (a listing of the folder, through the
 * outbound policy), so that a wrong password or address is said at once and nothing is stored. The password is
 * stored sealed; the first sync is queued at once.
 */
export async function createConnector(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  body: ConnectorInput,
): Promise<Connector> {
  const division = await connectableDivision(ctx, actor, divisionId);
  try {
    await webdavSource(body, ctx.outbound.policy).list();
  } catch (error) {
    throw unreachable(sourceFailure(error), actor.language, 'webdav');
  }
  const [row] = await ctx.db
    .insert(connectors)
    .values({
      companyId: division.companyId,
      divisionId,
      ownerId: actor.userId,
      kind: body.kind,
      name: body.name,
      url: body.url,
      userName: body.userName,
      secretSealed: new SecretBox(ctx.config.secrets.encryptionKey).seal(body.password),
      folder: body.folder,
      fileTypes: [...new Set(body.fileTypes)],
      intervalMinutes: body.intervalMinutes,
    })
    .returning();
  await requestSync(ctx, row!.id);
  return getConnector(ctx, actor, row!.id);
}

/**
 * Changes a connector without connecting it again (its files and their history stay). A new WebDAV login is tried
 * first (a listing of the folder), so that a wrong password is said at once and nothing is stored; a connector
 * connected by consent has no login to change. When what the sync reads changed (the login, the file types), an
 * active connector syncs again at once.
 */
export async function updateConnector(
  ctx: AppContext,
  actor: Actor,
  connectorId: string,
  changes: ConnectorChanges,
): Promise<Connector> {
  const { row } = await loadConnector(ctx, actor, connectorId, 'update');
  const login = changes.userName !== undefined || changes.password !== undefined;
  if (login && row.kind !== 'webdav') {
    const field = changes.password !== undefined ? 'password' : 'userName';
    throw new AppError('VALIDATION_FAILED', {
      in: 'body',
      fields: [
        {
          field,
          code: 'connectors.validation.noLogin',
          message: translate(actor.language, 'connectors.validation.noLogin'),
        },
      ],
    });
  }
  const box = new SecretBox(ctx.config.secrets.encryptionKey);
  if (login) {
    const settings = {
      url: row.url,
      folder: row.folder,
      userName: changes.userName ?? row.userName,
      password: changes.password ?? box.open(row.secretSealed),
    };
    try {
      await webdavSource(settings, ctx.outbound.policy).list();
    } catch (error) {
      throw unreachable(sourceFailure(error), actor.language, 'webdav');
    }
  }
  const fileTypes = changes.fileTypes && [...new Set(changes.fileTypes)];
  const set = {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.intervalMinutes !== undefined && { intervalMinutes: changes.intervalMinutes }),
    ...(fileTypes && { fileTypes }),
    ...(changes.userName !== undefined && { userName: changes.userName }),
    ...(changes.password !== undefined && { secretSealed: box.seal(changes.password) }),
  };
  if (Object.keys(set).length > 0)
    await ctx.db.update(connectors).set(set).where(eq(connectors.id, connectorId));
  const filtered =
    fileTypes !== undefined &&
    (fileTypes.length !== row.fileTypes.length || fileTypes.some((type) => !row.fileTypes.includes(type)));
  if ((login || filtered) && row.status === 'active') await requestSync(ctx, connectorId);
  return getConnector(ctx, actor, connectorId);
}

/** Syncs now: CONNECTOR_PAUSED for a paused connector, CONNECTOR_SYNC_RUNNING while one waits or runs. */
export async function syncNow(ctx: AppContext, actor: Actor, connectorId: string): Promise<Connector> {
  const { row } = await loadConnector(ctx, actor, connectorId, 'update');
  if (row.status === 'paused') throw new AppError('CONNECTOR_PAUSED');
  if (!(await requestSync(ctx, connectorId))) {
    const [now] = await ctx.db
      .select({ status: connectors.status })
      .from(connectors)
      .where(eq(connectors.id, connectorId));
    throw new AppError(now?.status === 'paused' ? 'CONNECTOR_PAUSED' : 'CONNECTOR_SYNC_RUNNING');
  }
  return getConnector(ctx, actor, connectorId);
}

/** Pauses scheduled syncs (a sync already running ends normally). */
export async function pauseConnector(ctx: AppContext, actor: Actor, connectorId: string): Promise<Connector> {
  await loadConnector(ctx, actor, connectorId, 'update');
  await ctx.db.update(connectors).set({ status: 'paused' }).where(eq(connectors.id, connectorId));
  return getConnector(ctx, actor, connectorId);
}

/** Resumes a connector, its failure count cleared, and syncs at once (unless one already waits or runs). */
export async function resumeConnector(
  ctx: AppContext,
  actor: Actor,
  connectorId: string,
): Promise<Connector> {
  await loadConnector(ctx, actor, connectorId, 'update');
  await ctx.db
    .update(connectors)
    .set({ status: 'active', failureCount: 0 })
    .where(eq(connectors.id, connectorId));
  await requestSync(ctx, connectorId);
  return getConnector(ctx, actor, connectorId);
}

/**
 * Disconnects a source. Its files stay in the division as files of their own (deletable by hand from then on): the
 * reference is dropped by the foreign key. A sync still running finds its connector gone and changes nothing more.
 */
export async function deleteConnector(ctx: AppContext, actor: Actor, connectorId: string): Promise<void> {
  await loadConnector(ctx, actor, connectorId, 'delete');
  await ctx.db.delete(connectors).where(eq(connectors.id, connectorId));
}
