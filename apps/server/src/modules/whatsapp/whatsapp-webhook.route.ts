import { timingSafeEqual } from 'node:crypto';
import { whatsappContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { registerRoute } from '../../http/route.ts';
import { signatureMatches, storeDelivery } from './webhook-delivery.ts';
import { connectionByKey } from './whatsapp-connection.service.ts';
import { whatsappInboundJob } from './whatsapp-inbound.job.ts';

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Meta's webhook for one company's number, in a scope of its own whose body parser keeps the raw bytes (the
 * signature is over them). GET is the verification handshake; POST checks `X-Hub-Signature-256` before anything else
 * (401, nothing stored), stores each message once and queues its job, and answers 200 at once.
 */
export function whatsappWebhookRoutes(scope: FastifyInstance, ctx: AppContext): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  registerRoute(scope, whatsappContracts.verifyWebhook, async (req, reply) => {
    const connection = await connectionByKey(ctx, req.params.companyKey);
    const q = req.query;
    if (
      !connection ||
      q['hub.mode'] !== 'subscribe' ||
      typeof q['hub.verify_token'] !== 'string' ||
      !sameText(q['hub.verify_token'], connection.verifyToken)
    ) {
      throw new AppError('WHATSAPP_VERIFY_TOKEN_INVALID');
    }
    reply.type('text/plain; charset=utf-8');
    return q['hub.challenge'] ?? '';
  });

  registerRoute(scope, whatsappContracts.receiveWebhook, async (req) => {
    const connection = await connectionByKey(ctx, req.params.companyKey);
    const raw = req.body as unknown;
    if (
      !connection ||
      !Buffer.isBuffer(raw) ||
      !signatureMatches(raw, req.headers['x-hub-signature-256'], connection.appSecret)
    ) {
      throw new AppError('WHATSAPP_SIGNATURE_INVALID');
    }
    let delivery: unknown;
    try {
      delivery = JSON.parse(raw.toString('utf8'));
    } catch {
      // Signed but unreadable: nothing to do, and Meta must not retry it for days.
      return { received: true as const };
    }
    const stored = await storeDelivery(ctx, connection, delivery);
    for (const id of stored) await ctx.jobs.send(whatsappInboundJob, { messageId: id }, { singletonKey: id });
    return { received: true as const };
  });
}
