import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { translate } from '../../i18n/translator.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';

/** The box an OAuth app's client secret is sealed in (the installation's key, as provider keys). */
export const appSecretBox = (ctx: AppContext) => new SecretBox(ctx.config.secrets.encryptionKey);

/** The redirect URI to register in an OAuth app: the web page (`path`) that hands the code back to the server. */
export async function redirectUriOf(ctx: AppContext, path: string): Promise<string> {
  return `${(await ctx.settings.current()).general.publicUrl}${path}`;
}

/**
 * Stores an OAuth app's row: with a new secret (sealed) it is written whole, without one the stored row keeps its
 * secret and only the rest changes; the first save needs a secret (VALIDATION_FAILED on `clientSecret`).
 */
export async function saveAppRow(
  ctx: AppContext,
  actor: Actor,
  secret: string | undefined,
  store: {
    upsert: (clientSecretSealed: string) => Promise<unknown>;
    update: () => Promise<unknown[]>;
  },
): Promise<void> {
  const trimmed = secret?.trim();
  if (trimmed) {
    await store.upsert(appSecretBox(ctx).seal(trimmed));
    return;
  }
  if ((await store.update()).length > 0) return;
  throw new AppError('VALIDATION_FAILED', {
    in: 'body',
    fields: [
      {
        field: 'clientSecret',
        code: 'validation.required',
        message: translate(actor.language, 'validation.required'),
      },
    ],
  });
}
