import {
  type AiProviderBody,
  type AiProviderSettings,
  type ConnectionTest,
  type Language,
  MODEL_PROVIDERS,
  type ModelProvider,
  PROVIDER_DEFAULTS,
} from '@werkwissen/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { aiProviders } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { translate } from '../../i18n/translator.ts';
import { baseUrlOf, listModels, type ProviderConnection } from './model-client.ts';
import { maskKey, SecretBox } from './secret-box.ts';

type Row = typeof aiProviders.$inferSelect;

const present = (row: Row): AiProviderSettings => ({
  provider: row.provider,
  baseUrl: row.baseUrl,
  model: row.model,
  transcriptionModel: row.transcriptionModel,
  apiKeyMasked: row.apiKeyHint,
  isDefault: row.isDefault,
  updatedAt: row.updatedAt.toISOString(),
});

const order = (p: ModelProvider) => MODEL_PROVIDERS.indexOf(p);

export async function listProviders(ctx: AppContext, companyId: string): Promise<AiProviderSettings[]> {
  const rows = await ctx.db.select().from(aiProviders).where(eq(aiProviders.companyId, companyId));
  return rows.sort((a, b) => order(a.provider) - order(b.provider)).map(present);
}

function invalid(field: string, code: string, lang: Language): AppError {
  return new AppError('VALIDATION_FAILED', {
    in: 'body',
    fields: [{ field, code, message: translate(lang, code) }],
  });
}

/** Saves a provider; an absent or empty key keeps the saved one. The key is stored sealed, with a masked hint. */
export async function saveProvider(
  ctx: AppContext,
  companyId: string,
  provider: ModelProvider,
  body: AiProviderBody,
  lang: Language,
): Promise<AiProviderSettings> {
  const [existing] = await ctx.db
    .select()
    .from(aiProviders)
    .where(and(eq(aiProviders.companyId, companyId), eq(aiProviders.provider, provider)));
  const baseUrl = body.baseUrl === undefined ? (existing?.baseUrl ?? null) : body.baseUrl;
  if (!baseUrlOf(provider, baseUrl)) throw invalid('baseUrl', 'validation.required', lang);
  const newKey = body.apiKey ? body.apiKey : null;
  if (PROVIDER_DEFAULTS[provider].needsKey && !newKey && !existing?.apiKeyEncrypted) {
    throw invalid('apiKey', 'validation.required', lang);
  }
  const box = new SecretBox(ctx.config.secrets.encryptionKey);
  const values = {
    baseUrl,
    model: body.model,
    transcriptionModel:
      body.transcriptionModel === undefined
        ? (existing?.transcriptionModel ?? null)
        : body.transcriptionModel || null,
    isDefault: body.isDefault ?? existing?.isDefault ?? false,
    ...(newKey ? { apiKeyEncrypted: box.seal(newKey), apiKeyHint: maskKey(newKey) } : {}),
    updatedAt: new Date(),
  };
  const row = await ctx.db.transaction(async (tx) => {
    if (values.isDefault) {
      await tx
        .update(aiProviders)
        .set({ isDefault: false })
        .where(and(eq(aiProviders.companyId, companyId), ne(aiProviders.provider, provider)));
    }
    const [saved] = await tx
      .insert(aiProviders)
      .values({ companyId, provider, ...values })
      .onConflictDoUpdate({ target: [aiProviders.companyId, aiProviders.provider], set: values })
      .returning();
    return saved!;
  });
  return present(row);
}

export async function removeProvider(
  ctx: AppContext,
  companyId: string,
  provider: ModelProvider,
): Promise<void> {
  const deleted = await ctx.db
    .delete(aiProviders)
    .where(and(eq(aiProviders.companyId, companyId), eq(aiProviders.provider, provider)))
    .returning({ provider: aiProviders.provider });
  if (deleted.length === 0) throw notFound();
}

/** A saved provider with its key opened, for the answer pipeline and transcription; null when not configured. */
export async function providerConnection(
  ctx: AppContext,
  companyId: string,
  provider: ModelProvider,
): Promise<ProviderConnection | null> {
  const [row] = await ctx.db
    .select()
    .from(aiProviders)
    .where(and(eq(aiProviders.companyId, companyId), eq(aiProviders.provider, provider)));
  return row ? connectionOf(ctx, row) : null;
}

function connectionOf(ctx: AppContext, row: Row): ProviderConnection {
  return {
    provider: row.provider,
    baseUrl: baseUrlOf(row.provider, row.baseUrl),
    apiKey: row.apiKeyEncrypted
      ? new SecretBox(ctx.config.secrets.encryptionKey).open(row.apiKeyEncrypted)
      : null,
    model: row.model,
    transcriptionModel: row.transcriptionModel,
  };
}

/** The provider that transcribes voice: the default one if it can, else the first that has a transcription model. */
export async function speechConnection(
  ctx: AppContext,
  companyId: string,
): Promise<ProviderConnection | null> {
  const rows = await ctx.db.select().from(aiProviders).where(eq(aiProviders.companyId, companyId));
  const able = rows
    .filter((r) => r.transcriptionModel)
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || order(a.provider) - order(b.provider));
  return able[0] ? connectionOf(ctx, able[0]) : null;
}

/** Tests the given settings, falling back to the saved key and URL, by listing the endpoint's models. */
export async function testProvider(
  ctx: AppContext,
  companyId: string,
  provider: ModelProvider,
  body: Partial<AiProviderBody>,
  lang: Language,
): Promise<ConnectionTest> {
  const saved = await providerConnection(ctx, companyId, provider);
  const baseUrl = baseUrlOf(provider, body.baseUrl ?? saved?.baseUrl ?? null);
  if (!baseUrl) throw invalid('baseUrl', 'validation.required', lang);
  const apiKey = body.apiKey || saved?.apiKey || null;
  const result = await listModels(baseUrl, apiKey);
  if (result.ok) return { ok: true, models: result.models, message: null };
  return {
    ok: false,
    models: [],
    message: `${translate(lang, 'errors.PROVIDER_ERROR')} (${result.reason})`,
  };
}
