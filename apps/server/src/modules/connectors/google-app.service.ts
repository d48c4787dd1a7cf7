import {
  GOOGLE_AUTH_URL,
  GOOGLE_CALLBACK_PATH,
  GOOGLE_DRIVE_URL,
  GOOGLE_TOKEN_URL,
  type GoogleApp,
  type googleAppBodySchema,
} from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type * as client from 'openid-client';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { googleApp } from '../../db/schema/index.ts';
import { oauthConfiguration } from './connector-oauth.ts';
import { appSecretBox, redirectUriOf, saveAppRow } from './oauth-app.ts';

type AppInput = z.output<typeof googleAppBodySchema>;

/** The Google OAuth client as the consent and the syncs use it, its secret opened. */
export interface ResolvedGoogleApp {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  driveUrl: string;
}

/** The redirect URI registered in the client: the web page that hands the code back to the server. */
export const googleRedirectUri = (ctx: AppContext) => redirectUriOf(ctx, GOOGLE_CALLBACK_PATH);

/** The client's endpoints at Google (or where the operator points them) as an openid-client configuration. */
export function googleOAuth(ctx: AppContext, app: ResolvedGoogleApp): client.Configuration {
  return oauthConfiguration(ctx, {
    issuer: new URL(app.authUrl).origin,
    authorizationEndpoint: app.authUrl,
    tokenEndpoint: app.tokenUrl,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
  });
}

/** The stored client, or null while the operator has not registered one. */
export async function loadGoogleApp(ctx: AppContext): Promise<ResolvedGoogleApp | null> {
  const [row] = await ctx.db.select().from(googleApp).where(eq(googleApp.id, 1));
  if (!row) return null;
  return {
    clientId: row.clientId,
    clientSecret: appSecretBox(ctx).open(row.clientSecretSealed),
    authUrl: row.authUrl,
    tokenUrl: row.tokenUrl,
    driveUrl: row.driveUrl,
  };
}

/** The client, or GOOGLE_APP_UNCONFIGURED. */
export async function requireGoogleApp(ctx: AppContext): Promise<ResolvedGoogleApp> {
  const app = await loadGoogleApp(ctx);
  if (!app) throw new AppError('GOOGLE_APP_UNCONFIGURED');
  return app;
}

export async function getGoogleApp(ctx: AppContext): Promise<GoogleApp> {
  const [row] = await ctx.db.select().from(googleApp).where(eq(googleApp.id, 1));
  return {
    configured: Boolean(row),
    clientId: row?.clientId ?? '',
    clientSecretSet: Boolean(row),
    authUrl: row?.authUrl ?? GOOGLE_AUTH_URL,
    tokenUrl: row?.tokenUrl ?? GOOGLE_TOKEN_URL,
    driveUrl: row?.driveUrl ?? GOOGLE_DRIVE_URL,
    redirectUri: await googleRedirectUri(ctx),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * Stores the client. The secret is sealed; an empty one keeps the stored secret (the first save needs one). Google
 * refresh tokens stay valid under a new secret of the same client.
 */
export async function saveGoogleApp(
  ctx: AppContext,
  actor: Actor,
  input: AppInput,
): Promise<{ app: GoogleApp; change: { before: unknown; after: unknown } }> {
  const before = await getGoogleApp(ctx);
  const values = {
    clientId: input.clientId,
    authUrl: input.authUrl,
    tokenUrl: input.tokenUrl,
    driveUrl: input.driveUrl,
    updatedAt: new Date(),
    updatedBy: actor.userId,
  };
  await saveAppRow(ctx, actor, input.clientSecret, {
    upsert: (clientSecretSealed) =>
      ctx.db
        .insert(googleApp)
        .values({ id: 1, ...values, clientSecretSealed })
        .onConflictDoUpdate({ target: googleApp.id, set: { ...values, clientSecretSealed } }),
    update: () =>
      ctx.db.update(googleApp).set(values).where(eq(googleApp.id, 1)).returning({ id: googleApp.id }),
  });
  const app = await getGoogleApp(ctx);
  const shown = ({ clientId, authUrl, tokenUrl, driveUrl }: GoogleApp) => ({
    clientId,
    authUrl,
    tokenUrl,
    driveUrl,
    secretChanged: Boolean(input.clientSecret?.trim()),
  });
  return { app, change: { before: before.configured ? shown(before) : null, after: shown(app) } };
}
