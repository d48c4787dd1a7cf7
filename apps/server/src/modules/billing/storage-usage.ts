import type { StorageUsage } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { companyLimit } from './company-plan.ts';
import { usedOf } from './limit-usage.queries.ts';

/** Used and total space of a company's stored files against its plan's storage limit. */
export async function storageUsage(ctx: AppContext, companyId: string | null): Promise<StorageUsage> {
  const maxUploadBytes = ctx.config.UPLOAD_MAX_MB * 1024 * 1024;
  if (!companyId) return { usedBytes: 0, limitBytes: 0, maxUploadBytes };
  const { max } = await companyLimit(ctx, companyId, 'storageBytes');
  const limits = { limitBytes: max ?? Number.MAX_SAFE_INTEGER, maxUploadBytes };
  return { usedBytes: await usedOf(ctx.db, companyId, 'storageBytes'), ...limits };
}
