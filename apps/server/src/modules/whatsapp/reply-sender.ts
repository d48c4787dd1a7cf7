import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { GRAPH_ERRORS, GraphClient, GraphError } from './graph-client.ts';
import { connectionOfCompany } from './whatsapp-connection.service.ts';

/**
 * Sends the pending parts of the reply to one incoming message, in order, each taking Meta's id (for its status
 * updates). Outside the 24-hour customer-service window (131047) nothing more may be sent: the rest fails at once.
 * A retryable failure is thrown for the job's next attempt, which continues with the first part not yet sent.
 */
export async function sendReply(ctx: AppContext, inboundId: string, finalAttempt: boolean): Promise<void> {
  const { rows } = await ctx.db.execute<{
    id: string;
    company_id: string;
    contact: string;
    body: string;
    in_wa_id: string | null;
  }>(sql`
    select o.id, o.company_id, o.contact, o.body, i.wa_message_id as in_wa_id from whatsapp_messages o
    join whatsapp_messages i on i.id = o.reply_to
    where o.reply_to = ${inboundId} and o.direction = 'out' and o.status = 'pending' order by o.part`);
  if (rows.length === 0) return;
  const connection = await connectionOfCompany(ctx, rows[0]!.company_id);
  const fail = (ids: string[], code: string) =>
    ctx.db.execute(sql`update whatsapp_messages set status = 'failed', error_code = ${code}, updated_at = now()
      where id = any(${sql.param(ids)}::uuid[])`);
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
      await ctx.db.execute(sql`update whatsapp_messages set status = 'sent', wa_message_id = ${waId}, sent_at = now(),
        updated_at = now() where id = ${part.id} and status = 'pending'`);
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
