import { billingContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { billingOverview, billingStatus } from './billing.service.ts';
import { cancelAtPeriodEnd, createCheckout, createPortal } from './checkout.service.ts';
import { invoicePdf } from './invoice-pdf.ts';
import { listInvoices, loadInvoice, presentInvoice } from './invoices.service.ts';
import { stripeWebhookRoute } from './stripe-webhook.route.ts';

export function billingRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, billingContracts.status, async (req) => billingStatus(ctx, requireActor(req)));
  registerRoute(app, billingContracts.overview, async (req) => billingOverview(ctx, requireActor(req)));
  registerRoute(app, billingContracts.checkout, async (req) =>
    createCheckout(ctx, requireActor(req), req.body.plan),
  );
  registerRoute(app, billingContracts.portal, async (req) => createPortal(ctx, requireActor(req)));
  registerRoute(app, billingContracts.cancel, async (req) => {
    const actor = requireActor(req);
    await cancelAtPeriodEnd(ctx, actor);
    return billingOverview(ctx, actor);
  });
  registerRoute(app, billingContracts.invoices, async (req) =>
    listInvoices(ctx, requireActor(req), req.query),
  );
  registerRoute(app, billingContracts.invoice, async (req) =>
    presentInvoice(await loadInvoice(ctx, requireActor(req), req.params.invoiceId)),
  );
  registerRoute(app, billingContracts.invoicePdf, async (req, reply) => {
    const actor = requireActor(req);
    const invoice = await loadInvoice(ctx, actor, req.params.invoiceId);
    const pdf = await invoicePdf(ctx, invoice, actor.language);
    const name = `invoice-${(invoice.number ?? invoice.id).replace(/[^\w.-]/g, '_')}.pdf`;
    reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}"`);
    return reply.send(pdf);
  });
  app.register(async (scope) => stripeWebhookRoute(scope, ctx));
}
