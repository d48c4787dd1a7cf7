import type { AppContext } from '../../app-context.ts';
import { GRAPH_ERRORS, GraphClient, GraphError } from './graph-client.ts';
import { failMessages, markPartSent, pendingReplyParts } from './whatsapp.queries.ts';
import { connectionOfCompany } from './whatsapp-connection.service.ts';

/**
 * Sends the pending parts of the reply to one incoming message, in order, each taking Meta's id (for its status
 * updates). Outside the 24-hour customer-service window (131047) nothing more may be sent: the rest fails at once.
 * A retryable failure is thrown for the job's next attempt, which continues with the first part not yet sent.
 */
export async function sendReply(ctx: AppContext, inboundId: string, finalAttempt: boolean): Promise<void> {
  const rows = await pendingReplyParts(ctx.db, inboundId);
  if (rows.length === 0) return;
  const connection = await connectionOfCompany(ctx, rows[0]!.company_id);
  const fail = (ids: string[], code: string) => failMessages(ctx.db, ids, code);
  if (!connection) {
    await fail(
      rows.map((r) => r.id),
      'WHATSAPP_NOT_CONNECTED',
    );
    return;
  }
  const graph = new GraphClient(ctx, connection.accessToken);
  for (const [i, part] of rows.entries()) {
    try {
      // The first part quotes the question it answers.
      const waId = await graph.sendText(
        connection.phoneNumberId,
        part.contact,
        part.body,
        i === 0 ? (part.in_wa_id ?? undefined) : undefined,
      );
      await markPartSent(ctx.db, part.id, waId);
    } catch (error) {
      const failure = error instanceof GraphError ? error : new GraphError(0, 0, String(error));
      const rest = rows.slice(i).map((r) => r.id);
      if (failure.code === GRAPH_ERRORS.reEngagement || !failure.retryable || finalAttempt) {
        ctx.log.warn({ err: failure, inboundId }, 'whatsapp reply not sent');
        await fail(rest, String(failure.code || failure.status));
        return;
      }
      throw failure;
    }
  }
}
