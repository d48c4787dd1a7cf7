import type { SettingsTab, SettingsValues, SystemSettings } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { type CurrentSettings, logoUrl, type StoredSettings } from './settings-cache.ts';
import { bumpSettingsVersion, saveStoredValues, storedValuesForUpdate } from './system-settings.queries.ts';

/** A change for the activity log: the values before and after. */
export interface Change {
  before: unknown;
  after: unknown;
}

/** The operator's view: settings in force, the environment's values beneath them, the logo. */
export function presentSettings(s: CurrentSettings): SystemSettings {
  return {
    values: {
      general: s.general,
      signUp: s.signUp,
      plans: s.plans,
      branding: s.branding,
      activityLog: s.activityLog,
      mailBudget: s.mailBudget,
    },
    defaults: s.defaults,
    logo: s.logo
      ? {
          url: logoUrl(s.logo),
          contentType: s.logo.contentType,
          sizeBytes: s.logo.sizeBytes,
          updatedAt: s.logo.updatedAt.toISOString(),
        }
      : null,
    updatedAt: s.updatedAt?.toISOString() ?? null,
  };
}

/**
 * Saves one tab. A value equal to the environment's is not stored, so the environment governs it again (saving a
 * tab with the values shown as defaults is how a setting is reset).
 */
export async function updateSettingsTab<T extends SettingsTab>(
  ctx: AppContext,
  actor: Actor,
  tab: T,
  input: SettingsValues[T],
): Promise<{ settings: SystemSettings; change: Change }> {
  // The country detection needs the lookup service's address, which only the environment gives.
  if (
    tab === 'signUp' &&
    (input as SettingsValues['signUp']).ipCountryLookup &&
    !ctx.config.IP_COUNTRY_LOOKUP_URL
  )
    throw new AppError('COUNTRY_LOOKUP_UNCONFIGURED');
  const before = (await ctx.settings.current())[tab];
  await ctx.db.transaction(async (tx) => {
    const values = await storedValuesForUpdate(tx);
    const defaults = ctx.settings.environment()[tab] as Record<string, unknown>;
    const differing = Object.fromEntries(
      Object.entries(input).filter(([field, value]) => value !== defaults[field]),
    );
    const stored: StoredSettings = { ...(values as StoredSettings), [tab]: differing };
    await saveStoredValues(tx, stored);
    await bumpSettingsVersion(tx, actor.userId);
  });
  const current = await ctx.settings.current();
  return { settings: presentSettings(current), change: { before, after: current[tab] } };
}

export async function getSystemSettings(ctx: AppContext): Promise<SystemSettings> {
  return presentSettings(await ctx.settings.current());
}
