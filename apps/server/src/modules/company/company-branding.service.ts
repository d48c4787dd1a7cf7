import { BRAND_COLOR_MIN_CONTRAST, type CompanyBranding, contrastRatio } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { companies, companyDefaultDocuments, companyLogos } from '../../db/schema/index.ts';
import { companyLogoPath } from '../mail/mail-logo.ts';

/** The caller's company's logo, colour and default document, as the company tab and the shell show them. */
export async function getCompanyBranding(ctx: AppContext, actor: Actor): Promise<CompanyBranding> {
  const companyId = ownCompany(actor, 'read');
  const [[logo], [document], [company]] = await Promise.all([
    ctx.db.select().from(companyLogos).where(eq(companyLogos.companyId, companyId)),
    ctx.db.select().from(companyDefaultDocuments).where(eq(companyDefaultDocuments.companyId, companyId)),
    ctx.db.select({ brandColor: companies.brandColor }).from(companies).where(eq(companies.id, companyId)),
  ]);
  return {
    brandColor: company?.brandColor ?? null,
    logo: logo
      ? {
          url: companyLogoPath(companyId, logo.sha256),
          width: logo.width,
          height: logo.height,
          updatedAt: logo.updatedAt.toISOString(),
        }
      : null,
    defaultDocument: document
      ? {
          name: document.name,
          kind: document.kind,
          sizeBytes: document.sizeBytes,
          updatedAt: document.updatedAt.toISOString(),
        }
      : null,
  };
}

/**
 * Sets (or with null removes) the caller's company's colour for its public pages. Buttons there carry white text on
 * it and links are written in it on white, so both must stay readable: a contrast of BRAND_COLOR_MIN_CONTRAST to white.
 */
export async function setBrandColor(ctx: AppContext, actor: Actor, brandColor: string | null): Promise<void> {
  const companyId = ownCompany(actor, 'update');
  const color = brandColor?.toLowerCase() ?? null;
  if (color && contrastRatio(color, '#ffffff') < BRAND_COLOR_MIN_CONTRAST)
    throw new AppError('BRAND_COLOR_LOW_CONTRAST', {
      contrast: contrastRatio(color, '#ffffff').toFixed(1),
      min: BRAND_COLOR_MIN_CONTRAST,
    });
  await ctx.db
    .update(companies)
    .set({ brandColor: color, updatedAt: new Date() })
    .where(eq(companies.id, companyId));
}

/** The stored objects of a company's logo and default document (removed with the company). */
export async function brandingKeys(db: DbOrTx, companyId: string): Promise<string[]> {
  const [logos, documents] = await Promise.all([
    db
      .select({ key: companyLogos.storageKey })
      .from(companyLogos)
      .where(eq(companyLogos.companyId, companyId)),
    db
      .select({ key: companyDefaultDocuments.storageKey })
      .from(companyDefaultDocuments)
      .where(eq(companyDefaultDocuments.companyId, companyId)),
  ]);
  return [...logos, ...documents].map((row) => row.key);
}
