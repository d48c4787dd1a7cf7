import type { ConnectedApp } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { deleteUserGrant, listUserGrants } from './oauth-records.queries.ts';

/** The apps the actor allowed to use the MCP server as them: their own grants only, whoever asks. */
export async function listConnectedApps(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number },
): Promise<{ items: ConnectedApp[]; total: number; page: number; pageSize: number }> {
  const { rows, total } = await listUserGrants(ctx.db, actor.userId, {
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return {
    items: rows.map((row) => ({
      grantId: row.grantId,
      clientId: row.clientId,
      clientName: row.clientName ?? row.clientId,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Ends one of the actor's grants with every token issued under it (404 for anyone else's). */
export async function revokeConnectedApp(ctx: AppContext, actor: Actor, grantId: string): Promise<void> {
  if (!(await deleteUserGrant(ctx.db, actor.userId, grantId))) throw new AppError('NOT_FOUND');
}
