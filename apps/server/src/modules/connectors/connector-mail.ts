import type { AppContext } from '../../app-context.ts';
import { translate } from '../../i18n/translator.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { ownerOf } from './connectors.queries.ts';
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
        reason: translate(owner.language, `connectors.failure.${connector.lastError ?? 'unreachable'}`),
      },
      userId: connector.ownerId,
      companyId: connector.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}
