import { randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import {
  type ErrorCode,
  type FileKind,
  type Language,
  UPLOAD_MAX_FILES,
  type UploadResult,
} from '@werkwissen/shared';
import { divisionAccess } from '../../access/division.access.ts';
import { fileAccess } from '../../access/file.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { isUniqueViolation } from '../../db/constraint-violation.ts';
import { translate } from '../../i18n/translator.ts';
import { assertPlanActive, upgradeVars } from '../billing/company-plan.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { storageUsage } from '../billing/storage-usage.ts';
import { cleanFileName } from '../processing/extract/file-name.ts';
import { MIME_BY_KIND, sniffFileKind } from '../processing/extract/sniff-type.ts';
import { extractFileJob, sendFileStep } from '../processing/process-file.jobs.ts';
import type { StoredObject } from './file-storage.ts';
import {
  divisionHoldsContent,
  insertUpload,
  insertUploadedFile,
  latestFileNamed,
  readableDivision,
} from './files.queries.ts';
import { getFile } from './files.service.ts';

type Rejection = { code: ErrorCode; vars?: Record<string, string | number> };

const mb = (bytes: number) => Math.max(0, Math.floor(bytes / 1024 / 1024));

/** The plain values of an error's details: what fills its message. */
const plainValues = (details: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries(details).filter((e): e is [string, string | number] =>
      ['string', 'number'].includes(typeof e[1]),
    ),
  );

/**
 * Takes the files of one multipart request: first each is staged while it streams in, hashed and counted (the size
 * limit stops it early), so that a request with more than UPLOAD_MAX_FILES files is refused before anything is
 * stored or queued. Then each is sniffed, checked against the quota and for the same content already in the
 * division, committed under its own key, its row inserted with its storage slot taken (`takeLimitSlot`: parallel
 * uploads never pass the limit together) and queued for processing. A rejected file never stops the others.
 */
export async function uploadFiles(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  parts: AsyncIterableIterator<MultipartFile>,
  declaredBytes: number,
  lang: Language,
): Promise<UploadResult> {
  const division = await readableDivision(ctx.db, divisionId, divisionAccess.where(actor, 'read'));
  if (!division) throw notFound();
  const companyId = division.companyId;
  fileAccess.assertCan(actor, 'create', { companyId, divisionId });
  await assertPlanActive(ctx, companyId);
  const usage = await storageUsage(ctx, companyId);
  const free = () => usage.limitBytes - usage.usedBytes;
  const quotaVars = async () => ({
    freeMb: mb(free()),
    limitMb: mb(usage.limitBytes),
    ...(await upgradeVars(ctx, companyId, 'storageBytes', lang)),
  });
  // Quota before storing anything: the request's declared size already tells when it cannot fit.
  if (declaredBytes > 0 && declaredBytes > free() + 64 * 1024) {
    throw new AppError('QUOTA_EXCEEDED', await quotaVars());
  }

  let uploadId: string | null = null;
  const results: UploadResult['results'] = [];
  let firstRejection: Rejection | null = null;
  const reject = (name: string, rejection: Rejection) => {
    firstRejection ??= rejection;
    results.push({
      name,
      accepted: false,
      error: { code: rejection.code, message: translate(lang, `errors.${rejection.code}`, rejection.vars) },
    });
  };

  const all = await stageAll(ctx, parts);
  try {
    for (const { name, staged, truncated } of all) {
      const checked = await check(ctx, staged, name, truncated, free(), quotaVars, divisionId);
      if ('code' in checked) {
        reject(name, checked);
        continue;
      }
      const { kind } = checked;
      const fileId = randomUUID();
      const storageKey = `${companyId}/${fileId}`;
      await ctx.storage.commit(staged.key, storageKey);
      try {
        // The file's bytes are known now: its storage slot is taken with its row, so that parallel uploads never
        // pass the limit together (the check above only spares committing a file that cannot fit).
        uploadId = await ctx.db.transaction(async (tx) => {
          const slot = {
            companyId,
            limit: 'storageBytes',
            amount: staged.sizeBytes,
            language: lang,
          } as const;
          await takeLimitSlot(ctx, tx, slot);
          const id = uploadId ?? (await insertUpload(tx, { companyId, divisionId, userId: actor.userId }));
          // A file with the same name in the division is an older version: replaced once this one is ready.
          const older = await latestFileNamed(tx, divisionId, name);
          await insertUploadedFile(tx, {
            id: fileId,
            companyId,
            divisionId,
            uploadId: id,
            uploadedBy: actor.userId,
            name,
            sizeBytes: staged.sizeBytes,
            mimeType: MIME_BY_KIND[kind],
            kind,
            sha256: staged.sha256,
            storageKey,
            replacesFileId: older,
          });
          return id;
        });
      } catch (error) {
        await ctx.storage.remove(storageKey);
        if (isUniqueViolation(error)) {
          reject(name, { code: 'FILE_DUPLICATE' });
          continue;
        }
        if (error instanceof AppError && (error.code === 'QUOTA_EXCEEDED' || error.code === 'PLAN_EXPIRED')) {
          reject(name, { code: error.code, vars: plainValues(error.details) });
          continue;
        }
        throw error;
      }
      usage.usedBytes += staged.sizeBytes;
      await sendFileStep(ctx, extractFileJob, fileId, 0);
      results.push({ name, accepted: true, file: await getFile(ctx, actor, fileId, lang) });
    }
  } finally {
    // What was not committed (rejected, or still staged when a step failed) goes; a committed file left staging.
    await removeStaged(ctx, all);
  }

  if (results.length === 0) throw new AppError('NO_FILES');
  if (!results.some((r) => r.accepted)) {
    // The first rejection's values (e.g. the limit) fill the message; every file's result is in the details.
    const first = firstRejection as Rejection | null;
    throw new AppError((first?.code ?? 'NO_FILES') as ErrorCode, { ...first?.vars, results });
  }
  return { uploadId, results, message: translate(lang, 'messages.fileAdded') };
}

type Staged = { name: string; staged: StoredObject; truncated: boolean };

/**
 * Stages every file part of the request. Busboy stops at the multipart `files` limit and the iterator throws
 * FST_FILES_LIMIT; then (as on any other failure) every staged file is removed again and nothing was stored.
 */
export async function stageAll(
  ctx: AppContext,
  parts: AsyncIterableIterator<MultipartFile>,
): Promise<Staged[]> {
  const all: Staged[] = [];
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const name = cleanFileName(part.filename ?? '');
      const staged = await ctx.storage.stage(part.file);
      all.push({ name, staged, truncated: part.file.truncated });
    }
    return all;
  } catch (error) {
    await removeStaged(ctx, all);
    if ((error as { code?: unknown }).code === 'FST_FILES_LIMIT') {
      throw new AppError('TOO_MANY_FILES', { max: UPLOAD_MAX_FILES });
    }
    throw error;
  }
}

export async function removeStaged(ctx: AppContext, all: Staged[]): Promise<void> {
  await removeStored(
    ctx,
    all.map((f) => f.staged.key),
    'staged upload',
  );
}

async function check(
  ctx: AppContext,
  staged: { key: string; sizeBytes: number; sha256: string },
  name: string,
  truncated: boolean,
  freeBytes: number,
  quotaVars: () => Promise<Record<string, string | number>>,
  divisionId: string,
): Promise<Rejection | { kind: FileKind }> {
  if (truncated) return { code: 'FILE_TOO_LARGE', vars: { limitMb: ctx.config.UPLOAD_MAX_MB } };
  if (staged.sizeBytes === 0) return { code: 'FILE_EMPTY' };
  if (staged.sizeBytes > freeBytes) return { code: 'QUOTA_EXCEEDED', vars: await quotaVars() };
  const sniffed = await ctx.storage.withLocalFile(staged.key, (path) => sniffFileKind(path, name));
  if (!sniffed.kind) return { code: 'FILE_TYPE_UNSUPPORTED' };
  const same = await divisionHoldsContent(ctx.db, divisionId, staged.sha256);
  return same ? { code: 'FILE_DUPLICATE' } : { kind: sniffed.kind };
}
