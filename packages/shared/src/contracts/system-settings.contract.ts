import { z } from 'zod';
import { COLOR_PATTERN, CONFIG_RANGES } from '../config/config.schema.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { languageField, requiredText, singleLineText } from './fields.ts';
import { defineContract, fileResponse } from './route-contract.ts';

/**
 * System settings: what an operator changes at run time, stored in the database over the environment's values.
 * Each tab validates with the bounds of the start-up schema (`CONFIG_RANGES`, `COLOR_PATTERN`); the messages are
 * locale keys. Secrets (keys, SMTP, signing keys) are not settings: they stay in the environment.
 */
const whole = (key: keyof typeof CONFIG_RANGES) =>
  z
    .number({ message: 'validation.wholeNumber' })
    .int({ message: 'validation.wholeNumber' })
    .min(CONFIG_RANGES[key].min, { message: 'validation.numberMin' })
    .max(CONFIG_RANGES[key].max, { message: 'validation.numberMax' });

const color = z
  .string({ message: 'validation.required' })
  .regex(COLOR_PATTERN, { message: 'validation.color' });

// A URL parser takes a NUL byte (it percent-encodes it): the text rule refuses control characters first.
const publicUrl = singleLineText(500)
  .pipe(z.url({ protocol: /^https?$/, message: 'validation.url' }))
  .transform((v) => v.replace(/\/+$/, ''));

export const settingsTabSchemas = {
  general: z.strictObject({
    appTitle: requiredText(100),
    publicUrl,
    defaultLanguage: languageField,
  }),
  signUp: z.strictObject({
    signupEnabled: z.boolean({ message: 'validation.invalid' }),
    /** On: the environment's provider (ALTCHA when the environment has none); off: no bot check on public forms. */
    botProtection: z.boolean({ message: 'validation.invalid' }),
    /** The phone input's country detection through IP_COUNTRY_LOOKUP_URL (off by default: it asks a third party). */
    ipCountryLookup: z.boolean({ message: 'validation.invalid' }).optional(),
  }),
  plans: z.strictObject({
    divisionsLimit: whole('DIVISIONS_LIMIT'),
    employeesLimit: whole('EMPLOYEES_LIMIT'),
    storageLimitMb: whole('STORAGE_LIMIT_MB'),
    trialDays: whole('TRIAL_DAYS'),
  }),
  branding: z.strictObject({
    primaryColor: color,
    primaryColorDark: color,
    surfaceLight: color,
    surfaceDark: color,
  }),
  activityLog: z.strictObject({
    retentionDays: whole('ACTIVITY_LOG_RETENTION_DAYS'),
  }),
  /** The mails a company may cause per hour and per day, on a paid plan and on a trial. */
  mailBudget: z.strictObject({
    perHour: whole('MAIL_BUDGET_PER_HOUR'),
    perDay: whole('MAIL_BUDGET_PER_DAY'),
    trialPerHour: whole('MAIL_BUDGET_TRIAL_PER_HOUR'),
    trialPerDay: whole('MAIL_BUDGET_TRIAL_PER_DAY'),
  }),
};

export type SettingsTab = keyof typeof settingsTabSchemas;
export const SETTINGS_TABS = Object.keys(settingsTabSchemas) as SettingsTab[];
/** Each tab's path segment, as in the page /admin/system-settings/:tab. */
export const SETTINGS_TAB_PATHS = {
  general: 'general',
  signUp: 'sign-up',
  plans: 'plans',
  branding: 'branding',
  activityLog: 'activity-log',
  mailBudget: 'mail-budget',
} as const satisfies Record<SettingsTab, string>;
export type SettingsValues = { [T in SettingsTab]: z.output<(typeof settingsTabSchemas)[T]> };

/** The largest logo accepted, and the image types it may have (sniffed from the content, never SVG: no scripts). */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const logoSchema = z
  .object({
    url: z.string(),
    contentType: z.enum(LOGO_TYPES),
    sizeBytes: z.number().int(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Logo' });

/** The settings as answered (plain values: the tab schemas above transform what they read). */
const valuesSchema = z.object({
  general: z.object({ appTitle: z.string(), publicUrl: z.string(), defaultLanguage: z.enum(LANGUAGES) }),
  signUp: z.object({
    signupEnabled: z.boolean(),
    botProtection: z.boolean(),
    ipCountryLookup: z.boolean().optional(),
  }),
  plans: z.object({
    divisionsLimit: z.number().int(),
    employeesLimit: z.number().int(),
    storageLimitMb: z.number().int(),
    trialDays: z.number().int(),
  }),
  branding: z.object({
    primaryColor: z.string(),
    primaryColorDark: z.string(),
    surfaceLight: z.string(),
    surfaceDark: z.string(),
  }),
  activityLog: z.object({ retentionDays: z.number().int() }),
  mailBudget: z.object({
    perHour: z.number().int(),
    perDay: z.number().int(),
    trialPerHour: z.number().int(),
    trialPerDay: z.number().int(),
  }),
});

/** Every setting as in force, the environment's values (what "default" means on each tab), and the uploaded logo. */
export const systemSettingsSchema = z
  .object({
    values: valuesSchema,
    defaults: valuesSchema,
    logo: logoSchema.nullable(),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'SystemSettings' });
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

const tags = ['system settings'];
const manage = { action: 'update', subject: 'Setting' } as const;

const updateTab = <const T extends SettingsTab, const Id extends string>(tab: T, operationId: Id) =>
  defineContract({
    method: 'PUT',
    path: `/admin/system-settings/${SETTINGS_TAB_PATHS[tab]}`,
    operationId,
    summary: `Saves the ${tab} tab; a value equal to the environment's is not stored (the environment governs it again)`,
    tags,
    permission: manage,
    body: settingsTabSchemas[tab],
    responses: { 200: systemSettingsSchema },
  });

export const systemSettingsContracts = {
  get: defineContract({
    method: 'GET',
    path: '/admin/system-settings',
    operationId: 'getSystemSettings',
    summary: 'The run-time settings with the environment defaults beneath them (secrets are never listed)',
    tags,
    permission: { action: 'read', subject: 'Setting' },
    responses: { 200: systemSettingsSchema },
  }),
  updateGeneral: updateTab('general', 'updateGeneralSettings'),
  updateSignUp: updateTab('signUp', 'updateSignUpSettings'),
  updatePlans: updateTab('plans', 'updatePlanSettings'),
  updateBranding: updateTab('branding', 'updateBrandingSettings'),
  updateActivityLog: updateTab('activityLog', 'updateActivityLogSettings'),
  updateMailBudget: updateTab('mailBudget', 'updateMailBudgetSettings'),
  uploadLogo: defineContract({
    method: 'PUT',
    path: '/admin/system-settings/logo',
    operationId: 'uploadLogo',
    summary: `Replaces the logo (multipart/form-data, one part \`file\`: PNG, JPEG or WebP, at most ${LOGO_MAX_BYTES / 1024} KB)`,
    tags,
    permission: manage,
    multipart: true,
    responses: { 200: systemSettingsSchema },
  }),
  removeLogo: defineContract({
    method: 'DELETE',
    path: '/admin/system-settings/logo',
    operationId: 'removeLogo',
    summary: 'Removes the uploaded logo: the product shows its built-in logo again',
    tags,
    permission: manage,
    responses: { 200: systemSettingsSchema },
  }),
  logo: defineContract({
    method: 'GET',
    path: '/branding/logo',
    operationId: 'brandingLogo',
    summary: "The operator's uploaded logo (404 while there is none); /config names its address",
    tags: ['system'],
    permission: 'public',
    responses: { 200: fileResponse('The logo image', LOGO_TYPES) },
  }),
};
