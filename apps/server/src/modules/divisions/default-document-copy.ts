import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { companyDefaultDocuments, files } from '../../db/schema/index.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { storageUsage } from '../billing/storage-usage.ts';
import { MIME_BY_KIND } from '../processing/extract/sniff-type.ts';
import { extractFileJob, sendFileStep } from '../processing/process-file.jobs.ts';

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
    await removeStored(ctx, [storageKey], 'default document');
    if (!(error instanceof AppError)) throw error;
    ctx.log.warn({ companyId, divisionId, code: error.code }, 'default document left out');
    return;
  }
  await sendFileStep(ctx, extractFileJob, fileId, 0);
}
