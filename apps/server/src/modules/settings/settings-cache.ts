import {
  type AppConfig,
  BUILT_IN_LOGO_URL,
  type LOGO_TYPES,
  SETTINGS_TABS,
  type SettingsTab,
  type SettingsValues,
  settingsTabSchemas,
} from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/database.ts';
import { systemLogo, systemSettings } from '../../db/schema/index.ts';

/** What the operator stored per tab: only the fields that differ from the environment. */
export type StoredSettings = { [T in SettingsTab]?: Partial<SettingsValues[T]> };

export interface LogoMeta {
  contentType: (typeof LOGO_TYPES)[number];
  sha256: string;
  sizeBytes: number;
  updatedAt: Date;
}

/** The settings in force: the environment's values with the operator's over them. */
export interface CurrentSettings extends SettingsValues {
  /** The environment's values, which a setting falls back to. */
  defaults: SettingsValues;
  logo: LogoMeta | null;
  updatedAt: Date | null;
  version: number;
}

interface Loaded {
  version: number;
  stored: StoredSettings;
  logo: LogoMeta | null;
  updatedAt: Date | null;
}

/** The environment's value of every setting. */
export function environmentSettings(config: AppConfig): SettingsValues {
  return {
    general: {
      appTitle: config.APP_TITLE,
      publicUrl: config.PUBLIC_URL,
      defaultLanguage: config.DEFAULT_LANGUAGE,
    },
    signUp: {
      signupEnabled: config.SIGNUP_ENABLED,
      botProtection: config.BOT_PROTECTION !== 'off',
      ipCountryLookup: config.IP_COUNTRY_LOOKUP_ENABLED,
    },
    plans: {
      divisionsLimit: config.DIVISIONS_LIMIT,
      employeesLimit: config.EMPLOYEES_LIMIT,
      storageLimitMb: config.STORAGE_LIMIT_MB,
      trialDays: config.TRIAL_DAYS,
    },
    branding: {
      primaryColor: config.PRIMARY_COLOR,
      primaryColorDark: config.PRIMARY_COLOR_DARK,
      surfaceLight: config.SURFACE_LIGHT,
      surfaceDark: config.SURFACE_DARK,
    },
    activityLog: { retentionDays: config.ACTIVITY_LOG_RETENTION_DAYS },
    mailBudget: {
      perHour: config.MAIL_BUDGET_PER_HOUR,
      perDay: config.MAIL_BUDGET_PER_DAY,
      trialPerHour: config.MAIL_BUDGET_TRIAL_PER_HOUR,
      trialPerDay: config.MAIL_BUDGET_TRIAL_PER_DAY,
    },
  };
}

/** The bot check public forms ask for: switched on, the environment's provider (ALTCHA when it names none). */
export function botProvider(config: AppConfig, settings: SettingsValues) {
  if (!settings.signUp.botProtection) return 'off' as const;
  return config.BOT_PROTECTION === 'off' ? ('altcha' as const) : config.BOT_PROTECTION;
}

/** The address of the uploaded logo (its hash makes a new logo a new address), or the built-in one. */
export function logoUrl(logo: LogoMeta | null): string {
  return logo ? `/api/v1/branding/logo?v=${logo.sha256.slice(0, 16)}` : BUILT_IN_LOGO_URL;
}

/** The configuration as in force: the settings written over the environment's keys (for /config and the like). */
export function configWithSettings(config: AppConfig, s: CurrentSettings): AppConfig {
  return {
    ...config,
    APP_TITLE: s.general.appTitle,
    PUBLIC_URL: s.general.publicUrl,
    API_BASE_URL: config.apiBaseUrlDefaulted ? `${s.general.publicUrl}/api/v1` : config.API_BASE_URL,
    DEFAULT_LANGUAGE: s.general.defaultLanguage,
    SIGNUP_ENABLED: s.signUp.signupEnabled,
    IP_COUNTRY_LOOKUP_ENABLED: Boolean(s.signUp.ipCountryLookup && config.IP_COUNTRY_LOOKUP_URL),
    BOT_PROTECTION: botProvider(config, s),
    DIVISIONS_LIMIT: s.plans.divisionsLimit,
    EMPLOYEES_LIMIT: s.plans.employeesLimit,
    STORAGE_LIMIT_MB: s.plans.storageLimitMb,
    TRIAL_DAYS: s.plans.trialDays,
    PRIMARY_COLOR: s.branding.primaryColor,
    PRIMARY_COLOR_DARK: s.branding.primaryColorDark,
    SURFACE_LIGHT: s.branding.surfaceLight,
    SURFACE_DARK: s.branding.surfaceDark,
    ACTIVITY_LOG_RETENTION_DAYS: s.activityLog.retentionDays,
    MAIL_BUDGET_PER_HOUR: s.mailBudget.perHour,
    MAIL_BUDGET_PER_DAY: s.mailBudget.perDay,
    MAIL_BUDGET_TRIAL_PER_HOUR: s.mailBudget.trialPerHour,
    MAIL_BUDGET_TRIAL_PER_DAY: s.mailBudget.trialPerDay,
  };
}

/**
 * The one way to read system settings, in every process (API and worker). Each `current()` reads the settings
 * row's version (one primary-key lookup) and reloads only when it changed, so a change saved by any process is in
 * force on the next read everywhere, without a restart and without trusting a timer.
 */
export class SettingsCache {
  private loaded: Loaded = { version: -1, stored: {}, logo: null, updatedAt: null };

  private readonly db: Db;
  private readonly config: AppConfig;
  private readonly log: Logger;
  constructor(db: Db, config: AppConfig, log: Logger) {
    this.db = db;
    this.config = config;
    this.log = log;
  }

  /**
   * The settings in force now. Inside a transaction, pass it: on the embedded database a second connection waits
   * for the open transaction, so reading beside it would never return.
   */
  async current(db: DbOrTx = this.db): Promise<CurrentSettings> {
    const [row] = await db
      .select({ version: systemSettings.version })
      .from(systemSettings)
      .where(eq(systemSettings.id, 1));
    if (!row || row.version !== this.loaded.version) await this.reload(db);
    return this.compose();
  }

  /** The environment's value of every setting (what a setting falls back to). */
  environment(): SettingsValues {
    return environmentSettings(this.config);
  }

  /**
   * The settings as last read by this process, for the few synchronous readers (the fallback language of an error
   * message); every `current()` call refreshes it.
   */
  lastRead(): CurrentSettings {
    return this.compose();
  }

  private async reload(db: DbOrTx): Promise<void> {
    const [[row], [logo]] = await Promise.all([
      db.select().from(systemSettings).where(eq(systemSettings.id, 1)),
      db
        .select({
          contentType: systemLogo.contentType,
          sha256: systemLogo.sha256,
          sizeBytes: systemLogo.sizeBytes,
          updatedAt: systemLogo.updatedAt,
        })
        .from(systemLogo),
    ]);
    this.loaded = {
      version: row?.version ?? 0,
      stored: this.validStored(row?.values ?? {}),
      logo: logo ? { ...logo, contentType: logo.contentType as LogoMeta['contentType'] } : null,
      updatedAt: row?.updatedAt ?? null,
    };
  }

  /** Keeps each stored value that still passes its tab's rule (an older release may have stored others). */
  private validStored(values: Record<string, unknown>): StoredSettings {
    const stored: Record<string, Record<string, unknown>> = {};
    for (const tab of SETTINGS_TABS) {
      const fields = values[tab];
      if (!fields || typeof fields !== 'object') continue;
      const shape = settingsTabSchemas[tab].shape as Record<
        string,
        { safeParse(v: unknown): { success: boolean } }
      >;
      const kept: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(fields)) {
        if (shape[field]?.safeParse(value).success) kept[field] = value;
        else this.log.warn({ tab, field }, 'ignoring a stored system setting that is no longer valid');
      }
      stored[tab] = kept;
    }
    return stored as StoredSettings;
  }

  private compose(): CurrentSettings {
    const defaults = environmentSettings(this.config);
    const { stored } = this.loaded;
    return {
      general: { ...defaults.general, ...stored.general },
      signUp: { ...defaults.signUp, ...stored.signUp },
      plans: { ...defaults.plans, ...stored.plans },
      branding: { ...defaults.branding, ...stored.branding },
      activityLog: { ...defaults.activityLog, ...stored.activityLog },
      mailBudget: { ...defaults.mailBudget, ...stored.mailBudget },
      defaults,
      logo: this.loaded.logo,
      updatedAt: this.loaded.updatedAt,
      version: this.loaded.version,
    };
  }
}
