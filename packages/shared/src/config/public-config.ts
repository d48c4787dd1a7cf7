import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import type { AppConfig } from './config.schema.ts';

/** What the browser may know of the configuration: nothing secret, nothing internal. */
export const publicConfigSchema = z.object({
  appMode: z.enum(['normal', 'clarityflow', 'handwerk']),
  appTitle: z.string(),
  /** The operator's uploaded logo, or the built-in one. */
  logoUrl: z.string(),
  apiBaseUrl: z.string(),
  companyWebsite: z.string(),
  privacyUrl: z.string().nullable(),
  domain: z.string(),
  contactPhone: z.string(),
  signupEnabled: z.boolean(),
  certificateNeeded: z.boolean(),
  defaultLanguage: z.enum(LANGUAGES),
  theme: z.object({
    mode: z.enum(['light', 'dark', 'system']),
    primaryColor: z.string(),
    primaryColorDark: z.string(),
    surfaceLight: z.string(),
    surfaceDark: z.string(),
  }),
  limits: z.object({
    divisions: z.number(),
    employees: z.number(),
    smtp: z.number(),
    emailSettings: z.number(),
  }),
  botProtection: z.object({
    provider: z.enum(['altcha', 'recaptcha', 'turnstile', 'off']),
    siteKey: z.string().nullable(),
  }),
  googleSignIn: z.object({ enabled: z.boolean(), clientId: z.string().nullable() }),
  payments: z.object({ enabled: z.boolean(), publishableKey: z.string().nullable() }),
  ipCountryLookup: z.object({ enabled: z.boolean(), url: z.string().nullable() }),
});

export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** The logo the web app ships, shown until the operator uploads one. */
export const BUILT_IN_LOGO_URL = '/assets/img/logo.png';

/**
 * Picks the public subset out of the validated configuration (on the server: the configuration with the system
 * settings over it, and the address of an uploaded logo).
 */
export function toPublicConfig(c: AppConfig, logoUrl: string = BUILT_IN_LOGO_URL): PublicConfig {
  return {
    appMode: c.APP_MODE,
    appTitle: c.APP_TITLE,
    logoUrl,
    apiBaseUrl: c.API_BASE_URL,
    companyWebsite: c.COMPANY_WEBSITE,
    privacyUrl: c.PRIVACY_URL ?? null,
    domain: c.DOMAIN,
    contactPhone: c.CONTACT_PHONE,
    signupEnabled: c.SIGNUP_ENABLED,
    certificateNeeded: c.CERTIFICATE_NEEDED,
    defaultLanguage: c.DEFAULT_LANGUAGE,
    theme: {
      mode: c.THEME_MODE,
      primaryColor: c.PRIMARY_COLOR,
      primaryColorDark: c.PRIMARY_COLOR_DARK,
      surfaceLight: c.SURFACE_LIGHT,
      surfaceDark: c.SURFACE_DARK,
    },
    limits: {
      divisions: c.DIVISIONS_LIMIT,
      employees: c.EMPLOYEES_LIMIT,
      smtp: c.SMTP_LIMIT,
      emailSettings: Number(c.EMAIL_SETTINGS_LIMIT),
    },
    botProtection: { provider: c.BOT_PROTECTION, siteKey: c.BOT_PROTECTION_SITE_KEY ?? null },
    googleSignIn: { enabled: c.GOOGLE_SIGNIN_ENABLED, clientId: c.GOOGLE_CLIENT_ID ?? null },
    payments: { enabled: c.PAYMENTS_ENABLED, publishableKey: c.STRIPE_PUBLISHABLE_KEY ?? null },
    ipCountryLookup: { enabled: c.IP_COUNTRY_LOOKUP_ENABLED, url: c.IP_COUNTRY_LOOKUP_URL ?? null },
  };
}
