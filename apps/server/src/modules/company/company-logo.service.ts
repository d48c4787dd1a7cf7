import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import { COMPANY_LOGO_MAX_BYTES } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { companyLogos } from '../../db/schema/index.ts';

const limitMb = COMPANY_LOGO_MAX_BYTES / 1024 / 1024;

/**
 * Reads the upload's one file part, keeping at most COMPANY_LOGO_MAX_BYTES. A larger file is read to its end before
 * it is refused: answering while the client still sends leaves some clients waiting for ever.
 */
export async function readCompanyLogoPart(part: MultipartFile | undefined): Promise<Buffer> {
  if (!part) throw new AppError('NO_FILES');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= COMPANY_LOGO_MAX_BYTES) chunks.push(chunk);
  }
  if (size > COMPANY_LOGO_MAX_BYTES) throw new AppError('COMPANY_LOGO_TOO_LARGE', { limitMb });
  return Buffer.concat(chunks);
}

/** Replaces the caller's company's logo with the cropped and scaled PNG of an upload, kept in the file storage. */
export async function replaceCompanyLogo(ctx: AppContext, actor: Actor, content: Buffer): Promise<void> {
  const companyId = ownCompany(actor, 'update');
  if (content.length === 0) throw new AppError('FILE_EMPTY');
  if (content.length > COMPANY_LOGO_MAX_BYTES) throw new AppError('COMPANY_LOGO_TOO_LARGE', { limitMb });
  // Loaded on first use: its SVG check (jsdom) and image scaling (sharp) are the heaviest packages of the server.
  const { prepareLogo } = await import('./logo-image.ts');
  const image = await prepareLogo(content);
  const staged = await ctx.storage.stage(Readable.from(image.png));
  const storageKey = `${companyId}/branding/logo-${staged.sha256.slice(0, 16)}.png`;
  await ctx.storage.commit(staged.key, storageKey);
  const [before] = await ctx.db
    .select({ storageKey: companyLogos.storageKey })
    .from(companyLogos)
    .where(eq(companyLogos.companyId, companyId));
  const row = {
    storageKey,
    sha256: staged.sha256,
    width: image.width,
    height: image.height,
    updatedAt: new Date(),
  };
  await ctx.db
    .insert(companyLogos)
    .values({ companyId, ...row })
    .onConflictDoUpdate({ target: companyLogos.companyId, set: row });
  if (before && before.storageKey !== storageKey) await removeStored(ctx, [before.storageKey], 'logo');
}

/** Removes the caller's company's logo: the product's own is shown again. */
export async function removeCompanyLogo(ctx: AppContext, actor: Actor): Promise<void> {
  const companyId = ownCompany(actor, 'update');
  const [removed] = await ctx.db
    .delete(companyLogos)
    .where(eq(companyLogos.companyId, companyId))
    .returning({ storageKey: companyLogos.storageKey });
  await removeStored(ctx, [removed?.storageKey], 'logo');
}

/**
 * The company's logo as PNG bytes, or null while it has none: for its documents (offers and invoices) and anything
 * else that draws it.
 */
export async function companyLogo(ctx: AppContext, companyId: string): Promise<Buffer | null> {
  const [logo] = await ctx.db
    .select({ storageKey: companyLogos.storageKey })
    .from(companyLogos)
    .where(eq(companyLogos.companyId, companyId));
  if (!logo) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.read(logo.storageKey)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** For the public address: the logo's bytes and digest, or 404 while the company has none. */
export async function publicCompanyLogo(ctx: AppContext, companyId: string) {
  const [logo] = await ctx.db
    .select({ sha256: companyLogos.sha256 })
    .from(companyLogos)
    .where(eq(companyLogos.companyId, companyId));
  const content = logo ? await companyLogo(ctx, companyId) : null;
  if (!logo || !content) throw notFound();
  return { sha256: logo.sha256, content };
}
