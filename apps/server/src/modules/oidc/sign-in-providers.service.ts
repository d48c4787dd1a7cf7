import {
  ENVIRONMENT_GOOGLE_ID,
  GOOGLE_ISSUER,
  type OfferedProvider,
  type OidcArea,
  type SignInProvider,
  type signInProviderBodySchema,
} from '@werkwissen/shared';
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { signInProviders } from '../../db/schema/index.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { OidcClients, type ProviderEndpoint } from './oidc-client.ts';

type ProviderInput = z.output<typeof signInProviderBodySchema>;
type Row = typeof signInProviders.$inferSelect;

/** A provider as the flow uses it: stored, or the environment's Google client. */
export interface ResolvedProvider extends ProviderEndpoint {
  kind: 'google' | 'oidc';
  name: string;
  allowedDomains: string[];
  areas: OidcArea[];
  enabled: boolean;
  source: 'settings' | 'environment';
}

const clients = new WeakMap<AppContext, OidcClients>();

/** The discovery cache of this server (one per context, so that test servers in one process stay apart). */
export function oidcClients(ctx: AppContext): OidcClients {
  let found = clients.get(ctx);
  if (!found) {
    found = new OidcClients();
    clients.set(ctx, found);
  }
  return found;
}

const box = (ctx: AppContext) => new SecretBox(ctx.config.secrets.encryptionKey);

function resolved(ctx: AppContext, row: Row): ResolvedProvider {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: row.clientSecretSealed ? box(ctx).open(row.clientSecretSealed) : null,
    allowedDomains: row.allowedDomains,
    areas: row.areas as OidcArea[],
    enabled: row.enabled,
    source: 'settings',
    version: row.updatedAt.toISOString(),
  };
}

/**
 * GOOGLE_SIGNIN_ENABLED with GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: Google on the user and employee sign-in
 * pages, for any domain, until the operator saves a Google provider of their own.
 */
function environmentGoogle(ctx: AppContext): ResolvedProvider | null {
  const c = ctx.config;
  if (!c.GOOGLE_SIGNIN_ENABLED || !c.GOOGLE_CLIENT_ID || !c.GOOGLE_CLIENT_SECRET) return null;
  return {
    id: ENVIRONMENT_GOOGLE_ID,
    kind: 'google',
    name: 'Google',
    issuer: GOOGLE_ISSUER,
    clientId: c.GOOGLE_CLIENT_ID,
    clientSecret: c.GOOGLE_CLIENT_SECRET,
    allowedDomains: [],
    areas: ['user', 'employee'],
    enabled: true,
    source: 'environment',
    version: 'environment',
  };
}

/** Every provider, the stored ones first (in the order they were added). */
export async function allProviders(ctx: AppContext): Promise<ResolvedProvider[]> {
  const rows = await ctx.db.select().from(signInProviders).orderBy(asc(signInProviders.createdAt));
  const stored = rows.map((row) => resolved(ctx, row));
  const google = environmentGoogle(ctx);
  return google && !stored.some((p) => p.kind === 'google') ? [...stored, google] : stored;
}

/** One provider by id, if it exists and is switched on. */
export async function enabledProvider(ctx: AppContext, id: string): Promise<ResolvedProvider | null> {
  const found = (await allProviders(ctx)).find((p) => p.id === id);
  return found?.enabled ? found : null;
}

const offered = (p: ResolvedProvider): OfferedProvider => ({ id: p.id, kind: p.kind, name: p.name });

/** The buttons of an area's sign-in page. */
export async function offeredProviders(ctx: AppContext, area: OidcArea): Promise<OfferedProvider[]> {
  return (await allProviders(ctx)).filter((p) => p.enabled && p.areas.includes(area)).map(offered);
}

/** Every enabled provider: an account of any area may link any of them (signing in is the areas' question). */
export async function linkableProviders(ctx: AppContext): Promise<OfferedProvider[]> {
  return (await allProviders(ctx)).filter((p) => p.enabled).map(offered);
}

function present(p: ResolvedProvider): SignInProvider {
  return {
    id: p.id,
    kind: p.kind,
    name: p.name,
    issuer: p.issuer,
    clientId: p.clientId,
    clientSecretSet: p.clientSecret !== null,
    allowedDomains: p.allowedDomains,
    areas: p.areas,
    enabled: p.enabled,
    source: p.source,
  };
}

/** The redirect URI every provider is registered with. */
export const callbackUrl = (ctx: AppContext) => `${ctx.config.PUBLIC_URL}/api/v1/auth/oidc/callback`;

export async function listSignInProviders(ctx: AppContext, _actor: Actor) {
  return { items: (await allProviders(ctx)).map(present), callbackUrl: callbackUrl(ctx) };
}

/** A Google provider always has Google's issuer, whatever was typed. */
const issuerOf = (input: ProviderInput) => (input.kind === 'google' ? GOOGLE_ISSUER : input.issuer);

/** Reads the provider's discovery document before saving, so that a mistyped issuer is refused at once. */
async function checkDiscovery(ctx: AppContext, endpoint: ProviderEndpoint): Promise<void> {
  await oidcClients(ctx).configuration(endpoint, ctx.log);
}

export async function createSignInProvider(ctx: AppContext, _actor: Actor, input: ProviderInput) {
  const secret = input.clientSecret?.trim() || null;
  const issuer = issuerOf(input);
  await checkDiscovery(ctx, {
    id: 'new',
    issuer,
    clientId: input.clientId,
    clientSecret: secret,
    version: String(Date.now()),
  });
  const [row] = await ctx.db
    .insert(signInProviders)
    .values({
      kind: input.kind,
      name: input.name,
      issuer,
      clientId: input.clientId,
      clientSecretSealed: secret ? box(ctx).seal(secret) : null,
      allowedDomains: input.allowedDomains,
      areas: input.areas,
      enabled: input.enabled,
    })
    .returning();
  const after = present(resolved(ctx, row!));
  return { provider: after, change: { before: null, after } };
}

async function storedRow(ctx: AppContext, id: string): Promise<Row> {
  const [row] = await ctx.db.select().from(signInProviders).where(eq(signInProviders.id, id));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function updateSignInProvider(ctx: AppContext, _actor: Actor, id: string, input: ProviderInput) {
  const row = await storedRow(ctx, id);
  const given = input.clientSecret?.trim() || null;
  const issuer = issuerOf(input);
  // A secret stays bound to its client: a changed client id or issuer needs it again (or has none).
  const keep = row.clientId === input.clientId && row.issuer === issuer;
  const sealed = given ? box(ctx).seal(given) : keep ? row.clientSecretSealed : null;
  const now = new Date();
  await checkDiscovery(ctx, {
    id,
    issuer,
    clientId: input.clientId,
    clientSecret: sealed ? box(ctx).open(sealed) : null,
    version: now.toISOString(),
  });
  const [next] = await ctx.db
    .update(signInProviders)
    .set({
      kind: input.kind,
      name: input.name,
      issuer,
      clientId: input.clientId,
      clientSecretSealed: sealed,
      allowedDomains: input.allowedDomains,
      areas: input.areas,
      enabled: input.enabled,
      updatedAt: now,
    })
    .where(eq(signInProviders.id, id))
    .returning();
  const after = present(resolved(ctx, next!));
  return { provider: after, change: { before: present(resolved(ctx, row)), after } };
}

export async function deleteSignInProvider(ctx: AppContext, _actor: Actor, id: string) {
  const row = await storedRow(ctx, id);
  await ctx.db.delete(signInProviders).where(eq(signInProviders.id, id));
  return { change: { before: present(resolved(ctx, row)), after: null } };
}
