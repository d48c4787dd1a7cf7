import type { ConnectorFailure } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { ownerOf } from './connectors.queries.ts';
import { failureText } from './failure-text.ts';
import type { ConnectorRow } from './sync.service.ts';

/** Tells whoever connected the source (through the outbox) that it paused after failing syncs, and why. */
export async function mailPausedConnector(ctx: AppContext, connector: ConnectorRow): Promise<void> {
  if (!connector.ownerId) return;
  const emailId = await ctx.db.transaction(async (tx) => {
    const owner = await ownerOf(tx, connector.ownerId!, connector.divisionId);
    if (!owner) return null;
    return writeToOutbox(tx, ctx, {
      to: owner.email,
      template: 'connectorPaused',
      language: owner.language,
      name: owner.first_name ?? owner.email,
      actionPath: `/divisions/${connector.divisionId}`,
      values: {
        connector: connector.name,
        division: owner.division,
        reason: failureText(
          owner.language,
          (connector.lastError ?? 'unreachable') as ConnectorFailure,
          connector.kind,
        ),
      },
      userId: connector.ownerId,
      companyId: connector.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}
