import { phoneVerificationContracts, whatsappContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { phoneVerificationStatus, startPhoneVerification } from './phone-verification.service.ts';
import {
  deleteWhatsAppConnection,
  getWhatsAppConnection,
  saveWhatsAppConnection,
  testWhatsAppConnection,
} from './whatsapp-connection.service.ts';
import { whatsappWebhookRoutes } from './whatsapp-webhook.route.ts';

export function whatsappRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, whatsappContracts.get, (req) => getWhatsAppConnection(ctx, requireActor(req)));
  registerRoute(app, whatsappContracts.save, (req) =>
    saveWhatsAppConnection(ctx, requireActor(req), req.body),
  );
  registerRoute(app, whatsappContracts.remove, async (req, reply) => {
    await deleteWhatsAppConnection(ctx, requireActor(req));
    reply.code(204);
    return undefined;
  });
  registerRoute(app, whatsappContracts.test, (req) =>
    testWhatsAppConnection(ctx, requireActor(req), req.body),
  );
  // Each user's own phone number, confirmed from WhatsApp before it answers as them.
  registerRoute(app, phoneVerificationContracts.status, (req) =>
    phoneVerificationStatus(ctx, requireActor(req)),
  );
  registerRoute(app, phoneVerificationContracts.start, (req) =>
    startPhoneVerification(ctx, requireActor(req)),
  );
  app.register(async (scope) => whatsappWebhookRoutes(scope, ctx));
}
