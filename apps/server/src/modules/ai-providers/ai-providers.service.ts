import {
  type AiProviderBody,
  type AiProviderSettings,
  type ConnectionTest,
  type Language,
  MODEL_PROVIDERS,
  type ModelProvider,
  PROVIDER_DEFAULTS,
  sameProviderEndpoint,
} from '@werkwissen/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { aiProviders } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import type { StoredConnection } from './ai-providers.queries.ts';
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

/**
 * Saves a provider; an absent or empty key keeps the saved one. The key is stored sealed, with a masked hint.
 *
 * A saved key only ever goes to the base URL it was entered for: with a changed base URL and no new key, a provider
 * that needs a key is refused (422 on `apiKey`: enter it again), and the saved key of one whose key is optional
 * (Ollama, a compatible server) is dropped. Refusing tells the user what to do where a silently dropped key would
 * only show up as failing chats; for an optional key, the new server may well need none.
 */
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
  const needsKey = PROVIDER_DEFAULTS[provider].needsKey;
  const movedKey =
    !newKey && existing?.apiKeyEncrypted && !sameProviderEndpoint(provider, existing.baseUrl, baseUrl);
  if (movedKey && needsKey) throw invalid('apiKey', 'validation.apiKeyAgain', lang);
  if (needsKey && !newKey && !existing?.apiKeyEncrypted) {
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
    ...(movedKey ? { apiKeyEncrypted: null, apiKeyHint: null } : {}),
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

export function connectionOf(ctx: AppContext, row: StoredConnection): ProviderConnection {
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

/** The company's first saved provider that `able` accepts: the default one, else in the providers' order. */
async function preferredConnection(
  ctx: AppContext,
  companyId: string,
  able: (row: Row) => boolean,
): Promise<ProviderConnection | null> {
  const rows = await ctx.db.select().from(aiProviders).where(eq(aiProviders.companyId, companyId));
  const [first] = rows
    .filter(able)
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || order(a.provider) - order(b.provider));
  return first ? connectionOf(ctx, first) : null;
}

/** The provider that transcribes voice: the default one if it can, else the first that has a transcription model. */
export function speechConnection(ctx: AppContext, companyId: string): Promise<ProviderConnection | null> {
  return preferredConnection(ctx, companyId, (r) => Boolean(r.transcriptionModel));
}

/** The model that structures work beside the chat (drafting an offer): the default provider, else the first saved. */
export function companyModelConnection(
  ctx: AppContext,
  companyId: string,
): Promise<ProviderConnection | null> {
  return preferredConnection(ctx, companyId, () => true);
}

/**
 * Tests the given settings by listing the endpoint's models. An absent base URL is the saved one; the saved key is
 * used only with the base URL it was saved for (a changed URL needs the key typed again, or is tested without a key
 * where the key is optional). The outbound policy applies; a failure says only whether the address was refused by
 * policy, the key was refused, or the test failed.
 */
export async function testProvider(
  ctx: AppContext,
  companyId: string,
  provider: ModelProvider,
  body: Partial<AiProviderBody>,
  lang: Language,
): Promise<ConnectionTest> {
  const saved = await providerConnection(ctx, companyId, provider);
  const baseUrl = baseUrlOf(provider, body.baseUrl === undefined ? (saved?.baseUrl ?? null) : body.baseUrl);
  if (!baseUrl) throw invalid('baseUrl', 'validation.required', lang);
  let apiKey = body.apiKey || null;
  if (!apiKey && saved?.apiKey) {
    if (sameProviderEndpoint(provider, saved.baseUrl, baseUrl)) apiKey = saved.apiKey;
    else if (PROVIDER_DEFAULTS[provider].needsKey) throw invalid('apiKey', 'validation.apiKeyAgain', lang);
  }
  const result = await listModels(ctx.outbound.fetch, baseUrl, apiKey);
  if (result.ok) return { ok: true, models: result.models, message: null };
  ctx.log.info({ provider, code: result.code, detail: result.detail }, 'AI-provider connection test failed');
  return { ok: false, models: [], message: translate(lang, `errors.${result.code}`) };
}
