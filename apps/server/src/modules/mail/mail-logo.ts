import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { companies, companyLogos } from '../../db/schema/index.ts';

/** The public address of a company's logo; the digest in the query makes a new logo a new address for caches. */
export const companyLogoPath = (companyId: string, sha256: string) =>
  `/api/v1/branding/companies/${companyId}/logo?v=${sha256.slice(0, 12)}`;

/** What a mail of the company shows in place of the product's name: its logo and name, or null. */
export async function mailLogo(db: DbOrTx, companyId: string | null | undefined) {
  if (!companyId) return null;
  const [row] = await db
    .select({ sha256: companyLogos.sha256, name: companies.name })
    .from(companyLogos)
    .innerJoin(companies, eq(companies.id, companyLogos.companyId))
    .where(eq(companyLogos.companyId, companyId));
  return row ? { path: companyLogoPath(companyId, row.sha256), name: row.name ?? '' } : null;
}
