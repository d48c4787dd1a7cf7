import { randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import { companyDefaultDocuments, files } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { storageUsage } from '../divisions/divisions.service.ts';
import { MIME_BY_KIND, sniffFileKind } from '../files/sniff-type.ts';
import { removeStaged, stageAll } from '../files/upload.service.ts';
import { extractFileJob, sendFileStep } from '../processing/process-file.jobs.ts';

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
    if (before) await removeObject(ctx, before.storageKey);
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
  if (removed) await removeObject(ctx, removed.storageKey);
}

async function removeObject(ctx: AppContext, key: string) {
  await ctx.storage
    .remove(key)
    .catch((error) => ctx.log.warn({ err: error, key }, 'default document not removed'));
}

/**
 * Gives a new division a copy of its company's default document, processed like an upload by whoever created the
 * division. A company without one, or without room for it in its storage (its storage slot is taken with the file's
 * row), starts with an empty division (the latter, like a copy the storage failed to make, is logged): the division
 * itself is never refused for it.
 */
export async function attachDefaultDocument(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
  divisionId: string,
): Promise<void> {
  const [document] = await ctx.db
    .select()
    .from(companyDefaultDocuments)
    .where(eq(companyDefaultDocuments.companyId, companyId));
  if (!document) return;
  const usage = await storageUsage(ctx, companyId);
  if (usage.usedBytes + document.sizeBytes > usage.limitBytes) {
    ctx.log.warn({ companyId, divisionId }, 'default document left out: the storage is full');
    return;
  }
  const fileId = randomUUID();
  const storageKey = `${companyId}/${fileId}`;
  try {
    const copy = await ctx.storage.stage(await ctx.storage.read(document.storageKey));
    await ctx.storage.commit(copy.key, storageKey);
  } catch (error) {
    ctx.log.error({ err: error, companyId, divisionId }, 'default document not copied');
    return;
  }
  try {
    await ctx.db.transaction(async (tx) => {
      const amount = document.sizeBytes;
      await takeLimitSlot(ctx, tx, { companyId, limit: 'storageBytes', amount, language: actor.language });
      await tx.insert(files).values({
        id: fileId,
        companyId,
        divisionId,
        uploadedBy: actor.userId,
        name: document.name,
        sizeBytes: document.sizeBytes,
        mimeType: MIME_BY_KIND[document.kind],
        kind: document.kind,
        sha256: document.sha256,
        storageKey,
      });
    });
  } catch (error) {
    await removeObject(ctx, storageKey);
    if (!(error instanceof AppError)) throw error;
    ctx.log.warn({ companyId, divisionId, code: error.code }, 'default document left out');
    return;
  }
  await sendFileStep(ctx, extractFileJob, fileId, 0);
}
