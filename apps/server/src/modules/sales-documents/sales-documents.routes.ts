import { salesDocumentContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { convertSalesDocument } from './convert-document.ts';
import { draftDocumentMail, listDocumentMails, sendDocumentMail } from './document-mail.service.ts';
import { draftOffer } from './draft-offer.service.ts';
import { downloadFacturX, downloadXRechnung } from './e-invoice.service.ts';
import { finaliseSalesDocument } from './issue-document.ts';
import {
  createSalesDocument,
  deleteSalesDocument,
  downloadSalesDocumentPdf,
  getSalesDocument,
  listSalesDocuments,
  setSalesDocumentStatus,
  updateSalesDocument,
} from './sales-documents.service.ts';

export function salesDocumentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const c = salesDocumentContracts;
  registerRoute(app, c.list, (req) => listSalesDocuments(ctx, requireActor(req), req.query));
  registerRoute(app, c.create, async (req, reply) => {
    const document = await createSalesDocument(ctx, requireActor(req), req.body);
    reply.code(201);
    return document;
  });
  registerRoute(app, c.draftOffer, async (req, reply) => {
    const document = await draftOffer(ctx, requireActor(req), req.body);
    reply.code(201);
    return document;
  });
  registerRoute(app, c.get, (req) => getSalesDocument(ctx, requireActor(req), req.params.documentId));
  registerRoute(app, c.update, (req) =>
    updateSalesDocument(ctx, requireActor(req), req.params.documentId, req.body),
  );
  registerRoute(app, c.remove, async (req, reply) => {
    await deleteSalesDocument(ctx, requireActor(req), req.params.documentId);
    reply.code(204);
    return undefined;
  });
  registerRoute(app, c.finalise, (req) =>
    finaliseSalesDocument(ctx, requireActor(req), req.params.documentId),
  );
  registerRoute(app, c.setStatus, (req) =>
    setSalesDocumentStatus(ctx, requireActor(req), req.params.documentId, req.body.status),
  );
  registerRoute(app, c.convert, async (req, reply) => {
    const document = await convertSalesDocument(ctx, requireActor(req), req.params.documentId, req.body);
    reply.code(201);
    return document;
  });
  registerRoute(app, c.pdf, async (req, reply) => {
    const { fileName, pdf } = await downloadSalesDocumentPdf(ctx, requireActor(req), req.params.documentId);
    reply.type('application/pdf').header('content-disposition', `attachment; filename="${fileName}"`);
    return reply.send(pdf);
  });
  registerRoute(app, c.xrechnung, async (req, reply) => {
    const { fileName, xml } = await downloadXRechnung(ctx, requireActor(req), req.params.documentId);
    reply
      .type('application/xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`);
    return reply.send(xml);
  });
  registerRoute(app, c.mailDraft, (req) => draftDocumentMail(ctx, requireActor(req), req.params.documentId));
  registerRoute(app, c.mails, (req) => listDocumentMails(ctx, requireActor(req), req.params.documentId));
  registerRoute(app, c.sendMail, async (req, reply) => {
    const mail = await sendDocumentMail(ctx, requireActor(req), req.params.documentId, req.body);
    reply.code(202);
    return mail;
  });
  registerRoute(app, c.facturX, async (req, reply) => {
    const { fileName, pdf } = await downloadFacturX(ctx, requireActor(req), req.params.documentId);
    reply.type('application/pdf').header('content-disposition', `attachment; filename="${fileName}"`);
    return reply.send(pdf);
  });
}
