import type { CompanyBranding } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import type { DbOrTx } from '../../db/database.ts';
import { companyDefaultDocuments, companyLogos } from '../../db/schema/index.ts';
import { companyLogoPath } from '../mail/mail-logo.ts';

/** The caller's company's logo and default document, as the company tab and the shell show them. */
export async function getCompanyBranding(ctx: AppContext, actor: Actor): Promise<CompanyBranding> {
  const companyId = ownCompany(actor, 'read');
  const [[logo], [document]] = await Promise.all([
    ctx.db.select().from(companyLogos).where(eq(companyLogos.companyId, companyId)),
    ctx.db.select().from(companyDefaultDocuments).where(eq(companyDefaultDocuments.companyId, companyId)),
  ]);
  return {
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
