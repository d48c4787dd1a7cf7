import { randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { companyDefaultDocuments } from '../../db/schema/index.ts';
import { removeStaged, stageAll } from '../files/upload.service.ts';
import { sniffFileKind } from '../processing/extract/sniff-type.ts';

/**
 * Replaces the company's default document with the request's one file: staged and checked like any upload (size
 * limit, empty, type by content), then kept in the file storage until a new division takes a copy.
 */
export async function replaceDefaultDocument(
  ctx: AppContext,
  actor: Actor,
  parts: AsyncIterableIterator<MultipartFile>,
): Promise<void> {
  const companyId = ownCompany(actor, 'update');
  const all = await stageAll(ctx, parts);
  try {
    const [upload, ...more] = all;
    if (!upload) throw new AppError('NO_FILES');
    if (more.length) throw new AppError('TOO_MANY_FILES', { max: 1 });
    const { name, staged, truncated } = upload;
    if (truncated) throw new AppError('FILE_TOO_LARGE', { limitMb: ctx.config.UPLOAD_MAX_MB });
    if (staged.sizeBytes === 0) throw new AppError('FILE_EMPTY');
    const { kind } = await ctx.storage.withLocalFile(staged.key, (path) => sniffFileKind(path, name));
    if (!kind) throw new AppError('FILE_TYPE_UNSUPPORTED');
    const storageKey = `${companyId}/default-document/${randomUUID()}`;
    await ctx.storage.commit(staged.key, storageKey);
    const row = {
      name,
      kind,
      sizeBytes: staged.sizeBytes,
      sha256: staged.sha256,
      storageKey,
      uploadedBy: actor.userId,
      updatedAt: new Date(),
    };
    const [before] = await ctx.db
      .select({ storageKey: companyDefaultDocuments.storageKey })
      .from(companyDefaultDocuments)
      .where(eq(companyDefaultDocuments.companyId, companyId));
    await ctx.db
      .insert(companyDefaultDocuments)
      .values({ companyId, ...row })
      .onConflictDoUpdate({ target: companyDefaultDocuments.companyId, set: row });
    await removeStored(ctx, [before?.storageKey], 'default document');
  } finally {
    await removeStaged(ctx, all);
  }
}

/** Removes the company's default document; divisions that took a copy keep theirs. */
export async function removeDefaultDocument(ctx: AppContext, actor: Actor): Promise<void> {
  const companyId = ownCompany(actor, 'update');
  const [removed] = await ctx.db
    .delete(companyDefaultDocuments)
    .where(eq(companyDefaultDocuments.companyId, companyId))
    .returning({ storageKey: companyDefaultDocuments.storageKey });
  await removeStored(ctx, [removed?.storageKey], 'default document');
}
