import {
  MICROSOFT_CALLBACK_PATH,
  MICROSOFT_GRAPH_URL,
  MICROSOFT_LOGIN_URL,
  type MicrosoftApp,
  type microsoftAppBodySchema,
} from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { microsoftApp } from '../../db/schema/index.ts';
import { appSecretBox, redirectUriOf, saveAppRow } from './oauth-app.ts';

type AppInput = z.output<typeof microsoftAppBodySchema>;

/** The Entra app as the consent and the syncs use it, its secret opened. */
export interface ResolvedMicrosoftApp {
  clientId: string;
  clientSecret: string;
  tenant: string;
  loginUrl: string;
  graphUrl: string;
}

/** The redirect URI registered in the app: the web page that hands the code back to the server. */
export async function microsoftRedirectUri(ctx: AppContext): Promise<string> {
  return redirectUriOf(ctx, MICROSOFT_CALLBACK_PATH);
}

/** The stored app, or null while the operator has not registered one. */
export async function loadMicrosoftApp(ctx: AppContext): Promise<ResolvedMicrosoftApp | null> {
  const [row] = await ctx.db.select().from(microsoftApp).where(eq(microsoftApp.id, 1));
  if (!row) return null;
  return {
    clientId: row.clientId,
    clientSecret: appSecretBox(ctx).open(row.clientSecretSealed),
    tenant: row.tenant,
    loginUrl: row.loginUrl,
    graphUrl: row.graphUrl,
  };
}

/** The app, or MICROSOFT_APP_UNCONFIGURED. */
export async function requireMicrosoftApp(ctx: AppContext): Promise<ResolvedMicrosoftApp> {
  const app = await loadMicrosoftApp(ctx);
  if (!app) throw new AppError('MICROSOFT_APP_UNCONFIGURED');
  return app;
}

export async function getMicrosoftApp(ctx: AppContext): Promise<MicrosoftApp> {
  const [row] = await ctx.db.select().from(microsoftApp).where(eq(microsoftApp.id, 1));
  return {
    configured: Boolean(row),
    clientId: row?.clientId ?? '',
    clientSecretSet: Boolean(row),
    tenant: row?.tenant ?? 'organizations',
    loginUrl: row?.loginUrl ?? MICROSOFT_LOGIN_URL,
    graphUrl: row?.graphUrl ?? MICROSOFT_GRAPH_URL,
    redirectUri: await microsoftRedirectUri(ctx),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * Stores the app. The secret is sealed; an empty one keeps the stored secret (the first save needs one). Connectors
 * already connected go on with their refresh tokens, which the new secret redeems as long as the app is the same.
 */
export async function saveMicrosoftApp(
  ctx: AppContext,
  actor: Actor,
  input: AppInput,
): Promise<{ app: MicrosoftApp; change: { before: unknown; after: unknown } }> {
  const before = await getMicrosoftApp(ctx);
  const values = {
    clientId: input.clientId,
    tenant: input.tenant,
    loginUrl: input.loginUrl,
    graphUrl: input.graphUrl,
    updatedAt: new Date(),
    updatedBy: actor.userId,
  };
  await saveAppRow(ctx, actor, input.clientSecret, {
    upsert: (clientSecretSealed) =>
      ctx.db
        .insert(microsoftApp)
        .values({ id: 1, ...values, clientSecretSealed })
        .onConflictDoUpdate({ target: microsoftApp.id, set: { ...values, clientSecretSealed } }),
    update: () =>
      ctx.db
        .update(microsoftApp)
        .set(values)
        .where(eq(microsoftApp.id, 1))
        .returning({ id: microsoftApp.id }),
  });
  const app = await getMicrosoftApp(ctx);
  const shown = ({ clientId, tenant, loginUrl, graphUrl }: MicrosoftApp) => ({
    clientId,
    tenant,
    loginUrl,
    graphUrl,
    secretChanged: Boolean(input.clientSecret?.trim()),
  });
  return { app, change: { before: before.configured ? shown(before) : null, after: shown(app) } };
}
