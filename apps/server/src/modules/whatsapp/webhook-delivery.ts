import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { advanceDelivery, storeInbound } from './whatsapp.queries.ts';
import type { OpenConnection } from './whatsapp-connection.service.ts';

/** Whether `X-Hub-Signature-256` is `sha256=` + the HMAC-SHA256 of the raw body with the app secret (constant time). */
export function signatureMatches(raw: Buffer, header: unknown, appSecret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const messageSchema = z.looseObject({
  id: z.string().min(1).max(200),
  from: z.string().regex(/^\d{5,20}$/),
  timestamp: z.string().regex(/^\d+$/),
  type: z.string().max(40),
});
const statusSchema = z.looseObject({
  id: z.string().min(1).max(200),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  errors: z.array(z.looseObject({ code: z.number() })).optional(),
});
const valueSchema = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string() }),
  contacts: z
    .array(z.looseObject({ wa_id: z.string(), profile: z.looseObject({ name: z.string() }).optional() }))
    .optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});
export const deliverySchema = z.looseObject({
  entry: z
    .array(z.looseObject({ changes: z.array(z.looseObject({ value: z.unknown() })).default([]) }))
    .default([]),
});

/** How far an outgoing message got: a status only ever moves forward (Meta's updates may arrive out of order). */
const STATUS_RANK = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 4 } as const;

/**
 * Stores what one delivery holds, every entry, change and message: each incoming message once by Meta's id (a
 * repeated delivery finds it stored and adds nothing), each status update on the outgoing message it names. A change
 * for another phone-number id than the company's is skipped. Answers the ids of the messages stored for the first
 * time, for the job that answers them.
 */
export async function storeDelivery(
  ctx: AppContext,
  connection: OpenConnection,
  delivery: unknown,
): Promise<string[]> {
  const parsed = deliverySchema.safeParse(delivery);
  if (!parsed.success) return [];
  const stored: string[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      const value = valueSchema.safeParse(change.value);
      if (!value.success) continue;
      if (value.data.metadata.phone_number_id !== connection.phoneNumberId) {
        ctx.log.warn(
          { companyId: connection.companyId },
          'whatsapp delivery for another phone number skipped',
        );
        continue;
      }
      const names = new Map(value.data.contacts?.map((c) => [c.wa_id, c.profile?.name ?? null]));
      for (const candidate of value.data.messages ?? []) {
        const message = messageSchema.safeParse(candidate);
        if (!message.success) continue;
        const { id, from, type } = message.data;
        const storedId = await storeInbound(ctx.db, {
          companyId: connection.companyId,
          waMessageId: id,
          contact: from,
          contactName: names.get(from) ?? null,
          kind: type,
          payload: candidate,
        });
        if (storedId) stored.push(storedId);
      }
      for (const candidate of value.data.statuses ?? []) {
        const status = statusSchema.safeParse(candidate);
        if (!status.success) continue;
        const { id, status: next, errors } = status.data;
        await advanceDelivery(ctx.db, connection.companyId, id, {
          status: next,
          rank: STATUS_RANK[next],
          errorCode: errors?.[0] ? String(errors[0].code) : null,
        });
      }
    }
  }
  return stored;
}
