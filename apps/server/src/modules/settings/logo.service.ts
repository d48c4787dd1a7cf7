import { createHash } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import { LOGO_MAX_BYTES, LOGO_TYPES, type SystemSettings } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { systemLogo } from '../../db/schema/index.ts';
import type { LogoMeta } from './settings-cache.ts';
import { bumpSettingsVersion } from './system-settings.queries.ts';
import { type Change, presentSettings } from './system-settings.service.ts';

/** What the activity log keeps of a logo: never its bytes. */
const logoRecord = (logo: LogoMeta | null) =>
  logo ? { contentType: logo.contentType, sizeBytes: logo.sizeBytes, sha256: logo.sha256 } : null;

/**
 * Reads the upload's one file part, keeping at most LOGO_MAX_BYTES. A larger file is read to its end and dropped
 * before it is refused: answering while the client still sends leaves some clients waiting for ever.
 */
export async function readLogoPart(part: MultipartFile | undefined): Promise<Buffer> {
  if (!part) throw new AppError('NO_FILES');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= LOGO_MAX_BYTES) chunks.push(chunk);
  }
  if (size > LOGO_MAX_BYTES) throw new AppError('LOGO_TOO_LARGE', { limitKb: LOGO_MAX_BYTES / 1024 });
  return Buffer.concat(chunks);
}

/**
 * Replaces the logo with an uploaded image: PNG, JPEG or WebP by its content (an SVG could carry scripts), at most
 * LOGO_MAX_BYTES.
 */
export async function replaceLogo(
  ctx: AppContext,
  actor: Actor,
  content: Buffer,
): Promise<{ settings: SystemSettings; change: Change }> {
  if (content.length === 0) throw new AppError('FILE_EMPTY');
  if (content.length > LOGO_MAX_BYTES)
    throw new AppError('LOGO_TOO_LARGE', { limitKb: LOGO_MAX_BYTES / 1024 });
  // Loaded on first use (some 40 modules): only an upload is sniffed.
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(content);
  const contentType = LOGO_TYPES.find((type) => type === sniffed?.mime);
  if (!contentType) throw new AppError('LOGO_TYPE_UNSUPPORTED');
  const before = logoRecord((await ctx.settings.current()).logo);
  const sha256 = createHash('sha256').update(content).digest('hex');
  await ctx.db.transaction(async (tx) => {
    const row = { content, contentType, sha256, sizeBytes: content.length, updatedAt: new Date() };
    await tx.insert(systemLogo).values(row).onConflictDoUpdate({ target: systemLogo.id, set: row });
    await bumpSettingsVersion(tx, actor.userId);
  });
  const current = await ctx.settings.current();
  return { settings: presentSettings(current), change: { before, after: logoRecord(current.logo) } };
}

/** Removes the uploaded logo; the product shows its built-in one again. */
export async function removeLogo(
  ctx: AppContext,
  actor: Actor,
): Promise<{ settings: SystemSettings; change: Change }> {
  const before = logoRecord((await ctx.settings.current()).logo);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(systemLogo).where(eq(systemLogo.id, 1));
    await bumpSettingsVersion(tx, actor.userId);
  });
  return { settings: presentSettings(await ctx.settings.current()), change: { before, after: null } };
}

/** The uploaded logo's bytes for the public branding address, or 404 while there is none. */
export async function logoContent(ctx: AppContext) {
  const [logo] = await ctx.db
    .select({ content: systemLogo.content, contentType: systemLogo.contentType, sha256: systemLogo.sha256 })
    .from(systemLogo);
  if (!logo) throw notFound();
  return logo;
}
