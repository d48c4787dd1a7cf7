import { fileContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  adminListFiles,
  cancelFile,
  deleteFile,
  getFile,
  listFiles,
  loadVisibleFile,
  retryFile,
} from './files.service.ts';
import { uploadFiles } from './upload.service.ts';

export function fileRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, fileContracts.list, async (req) =>
    listFiles(ctx, requireActor(req), req.params.divisionId, req.query, requestLanguage(req, ctx)),
  );
  registerRoute(app, fileContracts.upload, async (req, reply) => {
    if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    const result = await uploadFiles(
      ctx,
      requireActor(req),
      req.params.divisionId,
      req.files(),
      Number(req.headers['content-length'] ?? 0),
      requestLanguage(req, ctx),
    );
    reply.code(201);
    return result;
  });
  registerRoute(app, fileContracts.get, async (req) =>
    getFile(ctx, requireActor(req), req.params.fileId, requestLanguage(req, ctx)),
  );
  registerRoute(app, fileContracts.content, async (req, reply) => {
    const { file } = await loadVisibleFile(ctx, requireActor(req), req.params.fileId);
    // A PDF is always downloaded: Chromium's PDF viewer runs a document's JavaScript whatever the CSP (measured
    // with sandbox, default-src 'none', object-src and script-src variants; docs/decisions/0029-pdfs-in-own-viewer.md).
    const disposition = req.query.download === '1' || file.kind === 'pdf' ? 'attachment' : 'inline';
    reply
      .header('content-type', file.mimeType)
      .header('content-length', String(file.sizeBytes))
      .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store');
    // An uploaded HTML file is shown sandboxed, never run as part of the app; everything else keeps the app's CSP.
    if (file.kind === 'html')
      reply.header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'");
    return reply.send(await ctx.storage.read(file.storageKey));
  });
  registerRoute(app, fileContracts.retry, async (req) =>
    retryFile(ctx, requireActor(req), req.params.fileId, requestLanguage(req, ctx)),
  );
  registerRoute(app, fileContracts.cancel, async (req) =>
    cancelFile(ctx, requireActor(req), req.params.fileId, requestLanguage(req, ctx)),
  );
  registerRoute(app, fileContracts.remove, async (req, reply) => {
    await deleteFile(ctx, requireActor(req), req.params.fileId);
    reply.code(204);
    return undefined;
  });
  registerRoute(app, fileContracts.adminList, async (req) =>
    adminListFiles(ctx, requireActor(req), req.query, requestLanguage(req, ctx)),
  );
}
