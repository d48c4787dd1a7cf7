import { z } from 'zod';
import { LANGUAGES, normalizeLanguage } from '../i18n/languages.ts';
import { CONFIG_DEFAULTS } from './config.defaults.ts';
import { parseStorageUrl } from './storage-url.ts';

/**
 * The start-up configuration: every rule of spec section 5, read from environment variables named after the spec's
 * words. Unknown keys are allowed. Each field's description feeds the README's configuration reference.
 */
const bool = (description: string) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1' || v === 'yes')
    .describe(description);

const int = (description: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z.number().int().min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`),
    )
    .describe(description);

const url = (description: string) =>
  z.url({ protocol: /^https?$/, message: 'must be a valid http(s) URL' }).describe(description);
const color = (description: string) =>
  z.string().regex(COLOR_PATTERN, { message: 'must be a colour like #ff7526' }).describe(description);
const text = (description: string) =>
  z.string().trim().min(1, { message: 'must not be empty' }).describe(description);
const optionalText = (description: string) => z.string().trim().min(1).optional().describe(description);
const secret = (description: string) =>
  z.string().min(32, { message: 'must be at least 32 characters' }).optional().describe(description);

/** One entry of OUTBOUND_ALLOWED_HOSTS: a host name or IPv4 address or range, or a (bracketed) IPv6 one; optional port. */
const ALLOWED_HOST = [
  /^[a-z0-9.-]+(\/\d{1,2})?(:\d{1,5})?$/i,
  /^\[[0-9a-f:.]+(\/\d{1,3})?\](:\d{1,5})?$/i,
  /^[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*(\/\d{1,3})?$/i,
];

/**
 * Bounds of the numeric settings that an operator may also change at run time (system settings): the start-up
 * schema and the settings API validate with the same numbers.
 */
export const CONFIG_RANGES = {
  DIVISIONS_LIMIT: { min: 0, max: 1_000_000_000 },
  EMPLOYEES_LIMIT: { min: 0, max: 1_000_000_000 },
  STORAGE_LIMIT_MB: { min: 1, max: 10_000_000 },
  TRIAL_DAYS: { min: 1, max: 365 },
  ACTIVITY_LOG_RETENTION_DAYS: { min: 1, max: 3650 },
  MAIL_BUDGET_PER_HOUR: { min: 1, max: 1_000_000 },
  MAIL_BUDGET_PER_DAY: { min: 1, max: 10_000_000 },
  MAIL_BUDGET_TRIAL_PER_HOUR: { min: 1, max: 1_000_000 },
  MAIL_BUDGET_TRIAL_PER_DAY: { min: 1, max: 10_000_000 },
} as const;

/** The colour form of PRIMARY_COLOR and the other theme colours. */
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * The least memory a parser process may have, in MB: pdf.js alone needs about 110 MB of heap, and on Node 24 a child
 * limited to 128 MB runs out while it loads (it fitted on Node 20).
 */
export const PARSER_MEMORY_MIN_MB = 160;

const ranged = (key: keyof typeof CONFIG_RANGES, description: string) =>
  int(description, CONFIG_RANGES[key].min, CONFIG_RANGES[key].max);

export const configShape = {
  APP_MODE: z
    .enum(['normal', 'clarityflow', 'handwerk'], { message: 'must be one of normal, clarityflow, handwerk' })
    .describe('Application mode: normal, clarityflow or handwerk.'),
  APP_TITLE: text('Product name shown in the title bar, e-mails and the footer.'),
  PORT: int('HTTP port of the server (1-65535; the spec also reads 1-999 and 0-999).', 1, 65535),
  HOST: text(
    'Interface the server listens on: this machine only unless set; `0.0.0.0` for every interface (behind a reverse proxy, with `TRUST_PROXY`).',
  ),
  PUBLIC_URL: url(
    'Address users reach the product at; used in e-mail links, so set it whenever other machines reach the server (else mails link to localhost; the start logs a warning). Default: http://localhost:PORT.',
  ).optional(),
  API_BASE_URL: url('Base URL of the API (a valid URI). Default: PUBLIC_URL/api/v1.').optional(),
  COMPANY_WEBSITE: url('Website of the operating company.'),
  PRIVACY_URL: url('Legal-terms / privacy page linked in the footer (required in handwerk mode).').optional(),
  DOMAIN: text('Domain name of the installation.'),
  CONTACT_PHONE: text('Contact phone number shown to users.'),
  DIVISIONS_LIMIT: ranged('DIVISIONS_LIMIT', 'Most divisions per company.'),
  EMPLOYEES_LIMIT: ranged('EMPLOYEES_LIMIT', 'Most employees per company.'),
  SMTP_LIMIT: int('Most SMTP settings per company.', 0, 1_000_000_000),
  EMAIL_SETTINGS_LIMIT: z
    .string()
    .regex(/^\d+$/, { message: 'must be a string of digits' })
    .describe('Most e-mail settings per company (a string of digits, as the spec has it).'),
  CERTIFICATE_NEEDED: bool('Whether the certificates feature is needed (disabled pages 404 when false).'),
  SIGNUP_ENABLED: bool('Whether self sign-up (/register, /signup, /start) is open.'),
  PRIMARY_COLOR: color('Primary (brand) colour, used for fills.'),
  PRIMARY_COLOR_DARK: color('Darker primary colour, used for text and links on light surfaces.'),
  SURFACE_LIGHT: color('Surface colour in light mode.'),
  SURFACE_DARK: color('Surface colour in dark mode.'),
  THEME_MODE: z.enum(['light', 'dark', 'system']).describe('Default theme: light, dark or system.'),
  DEFAULT_LANGUAGE: z
    .preprocess((v) => (typeof v === 'string' ? (normalizeLanguage(v) ?? v) : v), z.enum(LANGUAGES))
    .optional()
    .describe(
      'Interface language when neither the user nor the browser chose one. Default: de in handwerk mode, else en.',
    ),
  BOT_PROTECTION: z
    .enum(['altcha', 'recaptcha', 'turnstile', 'off'])
    .describe('Bot check on public forms: altcha (self-hosted), recaptcha, turnstile or off.'),
  BOT_PROTECTION_SITE_KEY: optionalText('Bot-protection site key (required for recaptcha and turnstile).'),
  BOT_PROTECTION_SECRET: optionalText('Bot-protection secret key (required for recaptcha and turnstile).'),
  GOOGLE_SIGNIN_ENABLED: bool('Whether sign-in with Google is offered.'),
  GOOGLE_CLIENT_ID: optionalText(
    "Identity-provider (Google) client id (required when Google sign-in is enabled). In Google Cloud, register PUBLIC_URL/api/v1/auth/oidc/callback as redirect URI and the origin of PUBLIC_URL as authorised JavaScript origin (Google's own button on the sign-in pages).",
  ),
  GOOGLE_CLIENT_SECRET: optionalText(
    'Client secret of GOOGLE_CLIENT_ID (required when Google sign-in is enabled; a Google provider saved in the system settings replaces these keys).',
  ),
  PAYMENTS_ENABLED: bool('Whether plans are sold through Stripe.'),
  STRIPE_PUBLISHABLE_KEY: optionalText(
    'Stripe publishable key (required in clarityflow mode with payments).',
  ),
  STRIPE_MONTHLY_PRICE_ID: optionalText(
    'Stripe monthly price id (required with payments in handwerk and clarityflow mode).',
  ),
  STRIPE_SIX_MONTH_PRICE_ID: optionalText(
    'Stripe six-month price id (required in handwerk mode with payments).',
  ),
  STRIPE_YEARLY_PRICE_ID: optionalText(
    'Stripe yearly price id (required in clarityflow mode with payments).',
  ),
  STRIPE_30_DAY_PRODUCT_ID: optionalText(
    'Stripe 30-day product id (required with payments in handwerk and clarityflow mode).',
  ),
  STRIPE_SIX_MONTH_PRODUCT_ID: optionalText(
    'Stripe six-month product id (required in handwerk mode with payments).',
  ),
  STRIPE_365_DAY_PRODUCT_ID: optionalText(
    'Stripe 365-day product id (required in clarityflow mode with payments).',
  ),
  STRIPE_SECRET_KEY: optionalText('Stripe secret API key (required when PAYMENTS_ENABLED is true).'),
  STRIPE_WEBHOOK_SECRET: optionalText(
    'Signing secret of the Stripe webhook endpoint /api/v1/webhooks/stripe (required with payments).',
  ),
  STRIPE_HANDWERK_PRO_PRICE_ID: optionalText(
    'Stripe price id of the handwerkPro plan (without it the plan is assigned by the operator only).',
  ),
  STRIPE_HANDWERK_ENTERPRISE_PRICE_ID: optionalText(
    'Stripe price id of the handwerkEnterprise plan (without it the plan is assigned by the operator only).',
  ),
  STRIPE_API_URL: url(
    "Where the Stripe client sends its requests instead of Stripe's API (a local test double).",
  ).optional(),
  IP_COUNTRY_LOOKUP_ENABLED: bool(
    'Whether the phone input may ask an IP-to-country service (off for privacy).',
  ),
  IP_COUNTRY_LOOKUP_URL: url('IP-to-country lookup service used when enabled.').optional(),
  WHATSAPP_GRAPH_URL: url(
    "Base address of Meta's Graph API for the WhatsApp channel (a local test double in tests).",
  ),
  WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, { message: 'must be a Graph API version like v21.0' })
    .describe('Graph API version the WhatsApp channel calls (`v21.0`).'),
  DATA_DIR: text('Folder for the embedded database, files and generated secrets.'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
    .optional()
    .describe('PostgreSQL (with pgvector) to use instead of the embedded PGlite.'),
  EMBEDDED_DATABASE_OPTIMIZE: bool(
    "Whether the embedded PGlite's process optimises its busy code (V8's optimising compiler for PostgreSQL's WebAssembly): queries about a quarter faster once warm, for about 3 s more CPU at start and twice the memory (about 600 MB where 300 do without). false suits a small host, and the test suite's short-lived databases.",
  ),
  STORAGE_URL: z
    .string()
    .superRefine((value, ctx) => {
      const parsed = parseStorageUrl(value);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
    })
    .optional()
    .describe(
      'Where uploaded files are stored: unset, the folder `files` in DATA_DIR; or an S3-compatible bucket, `s3://bucket/optional-prefix?endpoint=http://host:9000&region=eu-central-1&forcePathStyle=true` (endpoint: the S3-compatible server, without it Amazon S3; region: default us-east-1; forcePathStyle: bucket in the path, default true with an endpoint). The bucket is checked at start.',
    ),
  S3_ACCESS_KEY_ID: optionalText(
    "Access key id for STORAGE_URL's bucket (required with an s3:// STORAGE_URL).",
  ),
  S3_SECRET_ACCESS_KEY: optionalText(
    "Secret access key for STORAGE_URL's bucket (required with an s3:// STORAGE_URL; never logged).",
  ),
  TOKEN_SIGNING_KEY: secret(
    'Key that signs access tokens (generated into DATA_DIR unless DATABASE_URL is set).',
  ),
  ENCRYPTION_KEY: secret(
    'Key that encrypts stored provider keys and SMTP passwords (generated like the signing key).',
  ),
  ALTCHA_HMAC_KEY: secret('Key of the self-hosted ALTCHA bot check (generated like the signing key).'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'must be an smtp:// or smtps:// URL' })
    .optional()
    .describe('Outgoing mail server, e.g. smtp://user:pass@host:587. Without it mails stay in the outbox.'),
  MAIL_FROM: text('Sender of outgoing e-mail.'),
  ADMIN_EMAIL: z
    .email({ message: 'must be a valid e-mail address' })
    .describe('E-mail of the first administrator.'),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .describe(
      'Password of the first administrator; without it a one-time setup link is printed at first start.',
    ),
  TRIAL_DAYS: ranged('TRIAL_DAYS', 'Length of the trial a new company gets, in days.'),
  ACTIVITY_LOG_RETENTION_DAYS: ranged(
    'ACTIVITY_LOG_RETENTION_DAYS',
    'Days the activity log keeps an entry; a daily job deletes older ones.',
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).describe('Log level.'),
  TRUST_PROXY: bool('Whether to trust X-Forwarded-* headers from a reverse proxy.'),
  BODY_LIMIT_BYTES: int('Largest JSON request body, in bytes.', 1024, 100 * 1024 * 1024),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: int(
    "Failed logins per account from one client address within the window before 429; after as many from any address, the account's sign-in asks for the bot check instead of locking its owner out.",
    1,
    1000,
  ),
  LOGIN_MAX_FAILURES_PER_ADDRESS: int(
    'Failed logins per client address within the window before 429.',
    1,
    100000,
  ),
  LOGIN_FAILURE_WINDOW_MINUTES: int(
    'Window of the failed-login, wrong-current-password and wrong-second-factor-code limits, in minutes.',
    1,
    1440,
  ),
  TWO_FACTOR_MAX_FAILURES: int(
    "Wrong second-factor codes per account, over all its pending sign-ins, within the failed-login window; more wait (429 with Retry-After) and the account's owner is told by e-mail.",
    1,
    1000,
  ),
  TWO_FACTOR_LOCK_FAILURES: int(
    "Wrong second-factor codes per account within 24 hours after which its second factor is locked (even the right code) until the 24 hours pass or a new password is set; the account's owner is told by e-mail.",
    1,
    10000,
  ),
  MAIL_MAX_PER_RECIPIENT_PER_HOUR: int(
    'Mails the public forms (password reset, verification) send to one address per hour.',
    1,
    1000,
  ),
  MAIL_FORMS_MAX_PER_ADDRESS_PER_HOUR: int(
    'Sign-ups and password-reset requests one client address may send per hour.',
    1,
    1_000_000,
  ),
  MAIL_BUDGET_PER_HOUR: ranged(
    'MAIL_BUDGET_PER_HOUR',
    "Mails a company may cause per hour (documents to customers, invitations, e-mail changes: anything with the company's recipients or text); 429 beyond.",
  ),
  MAIL_BUDGET_PER_DAY: ranged(
    'MAIL_BUDGET_PER_DAY',
    'Mails a company may cause per day (as MAIL_BUDGET_PER_HOUR).',
  ),
  MAIL_BUDGET_TRIAL_PER_HOUR: ranged(
    'MAIL_BUDGET_TRIAL_PER_HOUR',
    'Mails a company on a trial may cause per hour (as MAIL_BUDGET_PER_HOUR).',
  ),
  MAIL_BUDGET_TRIAL_PER_DAY: ranged(
    'MAIL_BUDGET_TRIAL_PER_DAY',
    'Mails a company on a trial may cause per day (as MAIL_BUDGET_PER_HOUR).',
  ),
  PUBLIC_CHAT_QUESTIONS_PER_LINK_PER_HOUR: int(
    "Questions one public chat's share link answers per hour, over all its visitors.",
    1,
    1_000_000,
  ),
  PUBLIC_CHAT_QUESTIONS_PER_COMPANY_PER_HOUR: int(
    "Questions a company's public chats answer per hour, over all their links and visitors.",
    1,
    10_000_000,
  ),
  UPLOAD_MAX_MB: int('Largest file a user may upload, in MB.', 1, 10_240),
  STORAGE_LIMIT_MB: ranged(
    'STORAGE_LIMIT_MB',
    "Storage per company for uploaded files, in MB (the plan's file storage).",
  ),
  PARSER_MEMORY_MB: int(
    `Memory limit of the document parser process, in MB (pdf.js alone needs about 110; at least ${PARSER_MEMORY_MIN_MB}).`,
    PARSER_MEMORY_MIN_MB,
    16_384,
  ),
  PARSER_TIMEOUT_SECONDS: int('Time limit for extracting the text of one file, in seconds.', 5, 3600),
  OCR_TESSERACT_PATH: text(
    'The Tesseract OCR program (Debian: tesseract-ocr and its language packs) that reads scans and photos.',
  ),
  OCR_PDFTOPPM_PATH: text(
    "poppler's pdftoppm (Debian: poppler-utils), which renders scanned PDF pages for OCR.",
  ),
  OCR_MAX_PAGES: int(
    'Most pages of one scan that OCR reads; a longer scan ends with FILE_PARSE_LIMIT.',
    1,
    100_000,
  ),
  PARSER_PROCESSES: int(
    'Parser processes that extract files at once (each with PARSER_MEMORY_MB); 0 sizes the pool to the machine: one per core, as many as half its memory holds, at least one.',
    0,
    64,
  ),
  PARSER_WARM_START: bool(
    'Whether a worker starts its parser processes when it starts (each loads pdf.js, about a second of CPU), so that the first upload does not wait for them; false starts each with its first document.',
  ),
  INDEX_WORKERS: int('Files whose passages a worker embeds and writes to the index at once.', 1, 16),
  EMBEDDER: z
    .enum(['builtin', 'transformers', 'openai'])
    .describe(
      'How passages become vectors: builtin (model-free, offline), transformers (a local ONNX model) or openai (any OpenAI-compatible embeddings API).',
    ),
  EMBEDDER_MODEL: optionalText(
    'Model id or local folder (transformers), or model name (openai), e.g. Xenova/multilingual-e5-small or text-embedding-3-small.',
  ),
  EMBEDDER_URL: url(
    'Base URL of the OpenAI-compatible embeddings API, e.g. https://api.openai.com/v1.',
  ).optional(),
  EMBEDDER_API_KEY: optionalText('API key of the embeddings API (openai embedder).'),
  EMBEDDER_DIMENSIONS: int('Vector size of the builtin embedder.', 32, 2000),
  VECTOR_EXACT_SCAN_MAX: int(
    'Up to this many passages in a search scope, vectors are compared exactly; above it the HNSW graph is walked (vectors not yet in it are compared exactly). Only a company with more published passages has its vectors moved into the graph, after its uploads.',
    0,
    10_000_000,
  ),
  CHAT_PASSAGES: int('How many passages an answer is built from.', 1, 20),
  RERANKER_URL: url(
    'A reranking service speaking the /rerank protocol of Jina, Cohere, vLLM and llama.cpp (POST {query, documents, top_n}), e.g. http://localhost:8080/v1/rerank: it reorders the top RERANKER_CANDIDATES passages before an answer is written. Unset: no reranking.',
  ).optional(),
  RERANKER_MODEL: optionalText(
    'Model name sent to the reranking service, e.g. jina-reranker-v2-base-multilingual.',
  ),
  RERANKER_API_KEY: optionalText('API key of the reranking service (sent as a Bearer token).'),
  RERANKER_CANDIDATES: int(
    'How many passages of the search the reranking service reorders for an answer.',
    1,
    100,
  ),
  CHAT_PROVIDER_TIMEOUT_SECONDS: int(
    'How long a language-model provider may stay silent (before and between tokens) before the answer is interrupted.',
    1,
    600,
  ),
  QUESTION_TRANSLATION_TIMEOUT_SECONDS: int(
    "How long a company's language model may take to translate a question into the documents' languages before searching; after it, the dictionaries translate.",
    1,
    120,
  ),
  DICTIONARY_PATH: text(
    "Folder of FreeDict's bilingual dictionaries in dictd format (Debian: the dict-freedict-* packages), which translate questions asked in another language than the documents when no model does; without them such questions find only the words they share with the documents.",
  ),
  APERTIUM_PATH: text(
    "Folder of Apertium's language data (Debian: apertium-rus-ukr, read with lttoolbox's lt-proc), whose analysers give the dictionary forms of Russian and Ukrainian question words and the Russian words for Ukrainian ones, for the dictionaries; optional.",
  ),
  OUTBOUND_ALLOW_PRIVATE: bool(
    "Whether requests made on a user's behalf (AI providers: connection test, chat answers, transcription; the openai embedder) may reach loopback, link-local and private addresses. Off: such addresses are refused after DNS resolution (EMBEDDER_URL's own host is always allowed).",
  ),
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .trim()
    .refine((v) => v.split(',').every((entry) => ALLOWED_HOST.some((re) => re.test(entry.trim()))), {
      message: 'must be comma-separated host names, IP addresses or CIDR ranges, each optionally with :port',
    })
    .optional()
    .describe(
      'Hosts those requests may reach although they are private, e.g. localhost:11434 for a local Ollama: comma-separated host names, IP addresses or CIDR ranges, each optionally with :port ([::1]:11434 for IPv6).',
    ),
  PUBLIC_CHAT_QUESTIONS_PER_HOUR: int(
    'Questions one address, and one visitor, may ask public chats per hour.',
    1,
    100_000,
  ),
  METRICS_TOKEN: secret(
    'Bearer token that unlocks `GET /metrics` (Prometheus format) on the API port. Without it and without METRICS_PORT, no metrics are served.',
  ),
  METRICS_PORT: int(
    'Port of a separate listener that serves only `/metrics` (on METRICS_HOST); every role, workers too, serves its own metrics there. Also asks for METRICS_TOKEN when that is set.',
    1,
    65535,
  ).optional(),
  METRICS_HOST: text(
    'Interface of the METRICS_PORT listener: this machine only unless set (in a container, the address the scraper reaches).',
  ),
  SHUTDOWN_GRACE_SECONDS: int(
    'On SIGTERM: how long running requests and jobs may finish before open answer streams are ended, and jobs still running are handed back to other workers.',
    0,
    600,
  ),
  MAIL_ASSISTANT_POLL_SECONDS: int(
    "How often the e-mail assistant reads a mailbox it holds in IDLE again although the IMAP server announced nothing (IDLE's safety net against a connection that died silently; a changed UIDVALIDITY is noticed then), and how often it reads each mailbox beyond MAIL_ASSISTANT_IDLE_PER_WORKER.",
    1,
    3600,
  ),
  MAIL_ASSISTANT_IDLE_PER_WORKER: int(
    'How many mailboxes one worker process watches at once over an IMAP IDLE connection of its own (new mail is read the moment the server announces it). The worker processes share the mailboxes; mailboxes beyond what they hold together are read in turn every MAIL_ASSISTANT_POLL_SECONDS, the longest unread first. 0: this worker only reads in turn.',
    0,
    10000,
  ),
  MAIL_ASSISTANT_ANSWERS_AT_ONCE: int(
    "How many incoming mails one worker process answers at once (each is one question to the company's language model), and how many replies it sends at once.",
    1,
    64,
  ),
  MAIL_ASSISTANT_MAX_MAIL_MB: int(
    "The largest mail the e-mail assistant reads, in MB as the IMAP server counts it (attachments included): a larger one is never downloaded, and is kept as not answered with the reason 'too-large'. Mails are downloaded one at a time.",
    1,
    1024,
  ),
};

export type ConfigKey = keyof typeof configShape;

/** Rules that depend on several keys: each mode's keys and the keys a switched-on feature needs. */
function crossFieldRules(c: z.infer<z.ZodObject<typeof configShape>>, ctx: z.RefinementCtx): void {
  const need = (key: ConfigKey, why: string) => {
    if (c[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `is required ${why}` });
  };
  // These rules run even after single keys failed (see `when` below), so a key that failed reads as unset here.
  const failed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  const get = <K extends ConfigKey>(key: K) => (failed.has(key) ? undefined : c[key]);
  if (get('APP_MODE') === 'handwerk') {
    need('PRIVACY_URL', 'in handwerk mode');
    if (get('PAYMENTS_ENABLED')) {
      for (const k of [
        'STRIPE_MONTHLY_PRICE_ID',
        'STRIPE_SIX_MONTH_PRICE_ID',
        'STRIPE_30_DAY_PRODUCT_ID',
        'STRIPE_SIX_MONTH_PRODUCT_ID',
      ] as const)
        need(k, 'in handwerk mode when PAYMENTS_ENABLED is true');
    }
  }
  if (get('APP_MODE') === 'clarityflow' && get('PAYMENTS_ENABLED')) {
    for (const k of [
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_MONTHLY_PRICE_ID',
      'STRIPE_YEARLY_PRICE_ID',
      'STRIPE_30_DAY_PRODUCT_ID',
      'STRIPE_365_DAY_PRODUCT_ID',
    ] as const)
      need(k, 'in clarityflow mode when PAYMENTS_ENABLED is true');
  }
  if (get('PAYMENTS_ENABLED')) {
    need('STRIPE_SECRET_KEY', 'when PAYMENTS_ENABLED is true');
    need('STRIPE_WEBHOOK_SECRET', 'when PAYMENTS_ENABLED is true');
  }
  if (get('GOOGLE_SIGNIN_ENABLED')) {
    need('GOOGLE_CLIENT_ID', 'when GOOGLE_SIGNIN_ENABLED is true');
    need('GOOGLE_CLIENT_SECRET', 'when GOOGLE_SIGNIN_ENABLED is true');
  }
  const botProtection = get('BOT_PROTECTION');
  if (botProtection === 'recaptcha' || botProtection === 'turnstile') {
    need('BOT_PROTECTION_SITE_KEY', `when BOT_PROTECTION is ${botProtection}`);
    need('BOT_PROTECTION_SECRET', `when BOT_PROTECTION is ${botProtection}`);
  }
  if (get('DATABASE_URL')) {
    for (const k of ['TOKEN_SIGNING_KEY', 'ENCRYPTION_KEY', 'ALTCHA_HMAC_KEY'] as const)
      need(k, 'when DATABASE_URL is set (secrets are generated only for the embedded database)');
  }
  if (get('STORAGE_URL')) {
    for (const k of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) need(k, 'when STORAGE_URL is set');
  }
  if (get('EMBEDDER') === 'openai') {
    need('EMBEDDER_URL', 'when EMBEDDER is openai');
    need('EMBEDDER_MODEL', 'when EMBEDDER is openai');
  }
  if (get('EMBEDDER') === 'transformers') need('EMBEDDER_MODEL', 'when EMBEDDER is transformers');
  if (get('IP_COUNTRY_LOOKUP_ENABLED'))
    need('IP_COUNTRY_LOOKUP_URL', 'when IP_COUNTRY_LOOKUP_ENABLED is true');
}

// `when`: zod skips refinements after an aborting issue (any bad enum or boolean), which would hide these rules.
export const configSchema = z.looseObject(configShape).superRefine(crossFieldRules, {
  when: (payload) => typeof payload.value === 'object' && payload.value !== null,
});

export type ParsedConfig = z.infer<typeof configSchema>;

export type ConfigResult = { ok: true; config: AppConfig } | { ok: false; errors: string[] };

export interface AppConfig extends ParsedConfig {
  PUBLIC_URL: string;
  /** PUBLIC_URL was not set, so mail links point at http://localhost:PORT. */
  publicUrlDefaulted?: boolean;
  API_BASE_URL: string;
  /** API_BASE_URL was not set, so it follows the public URL (also one changed in the system settings). */
  apiBaseUrlDefaulted?: boolean;
  DEFAULT_LANGUAGE: (typeof LANGUAGES)[number];
}

/** Validates an environment (defaults below it) and reports every violated rule at once, one line each. */
export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const input: Record<string, string | undefined> = { ...CONFIG_DEFAULTS };
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = configSchema.safeParse(input);
  if (!result.success) {
    const errors = result.error.issues.map((issue) => {
      const key = issue.path.join('.') || 'configuration';
      const got = typeof issue.path[0] === 'string' ? input[issue.path[0]] : undefined;
      const shown =
        got !== undefined && !/KEY|SECRET|PASSWORD|TOKEN|URL$|WEBSITE$/.test(key) ? ` (got "${got}")` : '';
      const message = issue.code === 'invalid_type' && got === undefined ? 'is required' : issue.message;
      return `${key}: ${message}${shown}`;
    });
    return { ok: false, errors };
  }
  const parsed = result.data;
  const publicUrl = (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '');
  return {
    ok: true,
    config: {
      ...parsed,
      PUBLIC_URL: publicUrl,
      publicUrlDefaulted: parsed.PUBLIC_URL === undefined,
      API_BASE_URL: parsed.API_BASE_URL ?? `${publicUrl}/api/v1`,
      apiBaseUrlDefaulted: parsed.API_BASE_URL === undefined,
      DEFAULT_LANGUAGE: parsed.DEFAULT_LANGUAGE ?? (parsed.APP_MODE === 'handwerk' ? 'de' : 'en'),
    },
  };
}

/** Formats a failed validation exactly as the start-up prints it. */
export function formatConfigErrors(errors: string[]): string {
  return ['Environment validation error', ...errors.map((e) => `  - ${e}`)].join('\n');
}
