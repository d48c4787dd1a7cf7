import { describe, expect, it } from 'vitest';
import { type AppConfig, configSchema, formatConfigErrors, parseConfig } from './config.schema.ts';
import { toPublicConfig } from './public-config.ts';

const SECRET_32 = 'k'.repeat(32);

/** Parses an environment that must be valid and returns its configuration. */
function valid(env: Record<string, string | undefined>): AppConfig {
  const result = parseConfig(env);
  if (!result.ok) throw new Error(`expected a valid configuration, got:\n${result.errors.join('\n')}`);
  return result.config;
}

/** Parses an environment that must be invalid and returns its error lines. */
function invalid(env: Record<string, string | undefined>): string[] {
  const result = parseConfig(env);
  if (result.ok) throw new Error('expected a validation error, but the configuration was accepted');
  return result.errors;
}

/** The keys named by error lines (`KEY: message`), in order. */
const keysOf = (errors: string[]) => errors.map((line) => line.slice(0, line.indexOf(':')));

describe('parseConfig: the committed defaults', () => {
  it('accepts an empty environment and fills in the defaults', () => {
    const config = valid({});
    expect(config.APP_MODE).toBe('handwerk');
    expect(config.PORT).toBe(4545);
    expect(config.DEFAULT_LANGUAGE).toBe('de');
    expect(config.PUBLIC_URL).toBe('http://localhost:4545');
    expect(config.API_BASE_URL).toBe('http://localhost:4545/api/v1');
  });

  it('listens on loopback only unless HOST says otherwise', () => {
    expect(valid({}).HOST).toBe('127.0.0.1');
    expect(valid({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('derives PUBLIC_URL from PORT and API_BASE_URL from PUBLIC_URL (without a trailing slash)', () => {
    expect(valid({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    const config = valid({ PUBLIC_URL: 'https://wissen.example.com/' });
    expect(config.PUBLIC_URL).toBe('https://wissen.example.com');
    expect(config.API_BASE_URL).toBe('https://wissen.example.com/api/v1');
  });

  it('defaults the language to en outside handwerk mode', () => {
    expect(valid({ APP_MODE: 'normal' }).DEFAULT_LANGUAGE).toBe('en');
    expect(valid({ APP_MODE: 'normal', DEFAULT_LANGUAGE: 'fr' }).DEFAULT_LANGUAGE).toBe('fr');
  });

  it('treats empty values as unset', () => {
    expect(valid({ PORT: '', APP_MODE: undefined }).PORT).toBe(4545);
  });

  it('allows unknown extra keys', () => {
    const result = parseConfig({ PATH: '/usr/bin:/bin', SOMETHING_ELSE: 'whatever', NODE_ENV: 'test' });
    expect(result).toMatchObject({ ok: true });
  });

  it('converts numbers and booleans', () => {
    const config = valid({ SIGNUP_ENABLED: 'no', TRUST_PROXY: '1', DIVISIONS_LIMIT: '0' });
    expect(config.SIGNUP_ENABLED).toBe(false);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.DIVISIONS_LIMIT).toBe(0);
  });
});

describe('parseConfig: one line per violated rule, naming the key', () => {
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ['PORT not a number', { PORT: 'abc' }, 'PORT', /whole number from 1 to 65535/],
    ['PORT above 65535', { PORT: '70000' }, 'PORT', /from 1 to 65535/],
    ['PORT zero', { PORT: '0' }, 'PORT', /from 1 to 65535/],
    ['unknown APP_MODE', { APP_MODE: 'enterprise' }, 'APP_MODE', /one of normal, clarityflow, handwerk/],
    ['colour without #', { PRIMARY_COLOR: 'ff7526' }, 'PRIMARY_COLOR', /colour like #ff7526/],
    ['colour name', { SURFACE_DARK: 'navy' }, 'SURFACE_DARK', /colour like #ff7526/],
    ['non-http website', { COMPANY_WEBSITE: 'ftp://werkwissen.example' }, 'COMPANY_WEBSITE', /http\(s\) URL/],
    ['website not a URL', { COMPANY_WEBSITE: 'werkwissen' }, 'COMPANY_WEBSITE', /http\(s\) URL/],
    ['DIVISIONS_LIMIT not a number', { DIVISIONS_LIMIT: 'many' }, 'DIVISIONS_LIMIT', /whole number/],
    ['EMAIL_SETTINGS_LIMIT not digits', { EMAIL_SETTINGS_LIMIT: '1e3' }, 'EMAIL_SETTINGS_LIMIT', /digits/],
    ['SIGNUP_ENABLED not a boolean', { SIGNUP_ENABLED: 'maybe' }, 'SIGNUP_ENABLED', /true or false/],
    ['DEFAULT_LANGUAGE unknown', { DEFAULT_LANGUAGE: 'es' }, 'DEFAULT_LANGUAGE', /Invalid option/],
    ['ADMIN_EMAIL not an address', { ADMIN_EMAIL: 'admin' }, 'ADMIN_EMAIL', /valid e-mail address/],
  ];

  it.each(cases)('%s', (_name, env, key, message) => {
    const errors = invalid(env);
    expect(errors).toHaveLength(1);
    expect(keysOf(errors)).toEqual([key]);
    expect(errors[0]).toMatch(message);
  });

  it('shows the rejected value of a harmless key', () => {
    expect(invalid({ PORT: 'abc' })).toEqual(['PORT: must be a whole number from 1 to 65535 (got "abc")']);
  });

  it('reports several violations at once', () => {
    const errors = invalid({
      PORT: '70000',
      APP_MODE: 'enterprise',
      PRIMARY_COLOR: 'orange',
      COMPANY_WEBSITE: 'not a url',
      DIVISIONS_LIMIT: 'ten',
      EMAIL_SETTINGS_LIMIT: '-1',
      SIGNUP_ENABLED: 'perhaps',
    });
    expect(errors).toHaveLength(7);
    expect(keysOf(errors).sort()).toEqual(
      [
        'APP_MODE',
        'COMPANY_WEBSITE',
        'DIVISIONS_LIMIT',
        'EMAIL_SETTINGS_LIMIT',
        'PORT',
        'PRIMARY_COLOR',
        'SIGNUP_ENABLED',
      ].sort(),
    );
  });

  it('reports cross-field rules together with single-key violations (also after a bad enum or boolean)', () => {
    const errors = invalid({ THEME_MODE: 'blue', SIGNUP_ENABLED: 'perhaps', GOOGLE_SIGNIN_ENABLED: 'true' });
    expect(keysOf(errors).sort()).toEqual([
      'GOOGLE_CLIENT_ID',
      'GOOGLE_CLIENT_SECRET',
      'SIGNUP_ENABLED',
      'THEME_MODE',
    ]);
  });

  it('does not apply a cross-field rule whose own switch is invalid', () => {
    // 'perhaps' is not a boolean: PAYMENTS_ENABLED is reported, not the Stripe keys it would switch on.
    expect(keysOf(invalid({ PAYMENTS_ENABLED: 'perhaps' }))).toEqual(['PAYMENTS_ENABLED']);
  });

  it('does not throw when the schema is given something that is not an object', () => {
    expect(configSchema.safeParse(null).success).toBe(false);
  });
});

describe('parseConfig: cross-field rules', () => {
  const HANDWERK_STRIPE = [
    'STRIPE_MONTHLY_PRICE_ID',
    'STRIPE_SIX_MONTH_PRICE_ID',
    'STRIPE_30_DAY_PRODUCT_ID',
    'STRIPE_SIX_MONTH_PRODUCT_ID',
  ];
  const CLARITYFLOW_STRIPE = [
    'STRIPE_PUBLISHABLE_KEY',
    'STRIPE_MONTHLY_PRICE_ID',
    'STRIPE_YEARLY_PRICE_ID',
    'STRIPE_30_DAY_PRODUCT_ID',
    'STRIPE_365_DAY_PRODUCT_ID',
  ];
  const ids = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, `${k.toLowerCase()}_123`]));
  /** Every mode needs the API key and the webhook's signing secret once payments are on. */
  const STRIPE_SECRETS = { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123' };

  it('needs no Stripe ids while payments are off', () => {
    for (const APP_MODE of ['normal', 'clarityflow', 'handwerk']) {
      expect(parseConfig({ APP_MODE, PAYMENTS_ENABLED: 'false' })).toMatchObject({ ok: true });
    }
  });

  it('handwerk mode with payments requires the four handwerk Stripe ids', () => {
    const errors = invalid({ APP_MODE: 'handwerk', PAYMENTS_ENABLED: 'true', ...STRIPE_SECRETS });
    expect(keysOf(errors).sort()).toEqual([...HANDWERK_STRIPE].sort());
    for (const line of errors)
      expect(line).toMatch(/is required in handwerk mode when PAYMENTS_ENABLED is true/);
    valid({ APP_MODE: 'handwerk', PAYMENTS_ENABLED: 'true', ...ids(HANDWERK_STRIPE), ...STRIPE_SECRETS });
  });

  it('handwerk mode reports only the Stripe ids that are missing', () => {
    const { STRIPE_SIX_MONTH_PRODUCT_ID: _missing, ...others } = ids(HANDWERK_STRIPE);
    expect(keysOf(invalid({ PAYMENTS_ENABLED: 'true', ...others, ...STRIPE_SECRETS }))).toEqual([
      'STRIPE_SIX_MONTH_PRODUCT_ID',
    ]);
  });

  it('clarityflow mode with payments requires its five keys and not the six-month ids', () => {
    const errors = invalid({ APP_MODE: 'clarityflow', PAYMENTS_ENABLED: 'true', ...STRIPE_SECRETS });
    expect(keysOf(errors).sort()).toEqual([...CLARITYFLOW_STRIPE].sort());
    expect(keysOf(errors)).not.toContain('STRIPE_SIX_MONTH_PRICE_ID');
    expect(keysOf(errors)).not.toContain('STRIPE_SIX_MONTH_PRODUCT_ID');
    valid({
      APP_MODE: 'clarityflow',
      PAYMENTS_ENABLED: 'true',
      ...ids(CLARITYFLOW_STRIPE),
      ...STRIPE_SECRETS,
    });
  });

  it('handwerk mode does not require the clarityflow-only keys', () => {
    const config = valid({
      APP_MODE: 'handwerk',
      PAYMENTS_ENABLED: 'true',
      ...ids(HANDWERK_STRIPE),
      ...STRIPE_SECRETS,
    });
    expect(config.STRIPE_PUBLISHABLE_KEY).toBeUndefined();
    expect(config.STRIPE_YEARLY_PRICE_ID).toBeUndefined();
  });

  it('normal mode with payments requires neither mode’s keys', () => {
    expect(valid({ APP_MODE: 'normal', PAYMENTS_ENABLED: 'true', ...STRIPE_SECRETS }).PAYMENTS_ENABLED).toBe(
      true,
    );
  });

  it('payments in any mode require the Stripe secret key and the webhook signing secret', () => {
    const errors = invalid({ APP_MODE: 'normal', PAYMENTS_ENABLED: 'true' });
    expect(keysOf(errors).sort()).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    for (const line of errors) expect(line).toMatch(/is required when PAYMENTS_ENABLED is true/);
  });

  it('GOOGLE_SIGNIN_ENABLED=true requires GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET', () => {
    expect(invalid({ GOOGLE_SIGNIN_ENABLED: 'true' })).toEqual([
      'GOOGLE_CLIENT_ID: is required when GOOGLE_SIGNIN_ENABLED is true',
      'GOOGLE_CLIENT_SECRET: is required when GOOGLE_SIGNIN_ENABLED is true',
    ]);
    valid({
      GOOGLE_SIGNIN_ENABLED: 'true',
      GOOGLE_CLIENT_ID: 'client-id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'client-secret',
    });
    valid({ GOOGLE_SIGNIN_ENABLED: 'false' });
  });

  it.each(['recaptcha', 'turnstile'])('BOT_PROTECTION=%s requires site key and secret', (provider) => {
    expect(keysOf(invalid({ BOT_PROTECTION: provider })).sort()).toEqual([
      'BOT_PROTECTION_SECRET',
      'BOT_PROTECTION_SITE_KEY',
    ]);
    expect(keysOf(invalid({ BOT_PROTECTION: provider, BOT_PROTECTION_SITE_KEY: 'site' }))).toEqual([
      'BOT_PROTECTION_SECRET',
    ]);
    valid({ BOT_PROTECTION: provider, BOT_PROTECTION_SITE_KEY: 'site', BOT_PROTECTION_SECRET: 'secret' });
  });

  it('altcha and off need no keys', () => {
    valid({ BOT_PROTECTION: 'altcha' });
    valid({ BOT_PROTECTION: 'off' });
  });

  it('DATABASE_URL requires the three secrets, each of at least 32 characters', () => {
    const DATABASE_URL = 'postgres://ww:pw@db:5432/werkwissen';
    expect(keysOf(invalid({ DATABASE_URL })).sort()).toEqual([
      'ALTCHA_HMAC_KEY',
      'ENCRYPTION_KEY',
      'TOKEN_SIGNING_KEY',
    ]);
    const secrets = { TOKEN_SIGNING_KEY: SECRET_32, ENCRYPTION_KEY: SECRET_32, ALTCHA_HMAC_KEY: SECRET_32 };
    valid({ DATABASE_URL, ...secrets });
    expect(invalid({ DATABASE_URL, ...secrets, ENCRYPTION_KEY: 'k'.repeat(31) })).toEqual([
      'ENCRYPTION_KEY: must be at least 32 characters',
    ]);
    // Without DATABASE_URL the secrets are generated, so none is needed.
    expect(valid({}).TOKEN_SIGNING_KEY).toBeUndefined();
  });

  it('STORAGE_URL requires both S3 keys, and the files stay in DATA_DIR without it', () => {
    const STORAGE_URL = 's3://werkwissen-files?endpoint=http://minio:9000';
    expect(keysOf(invalid({ STORAGE_URL })).sort()).toEqual(['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
    expect(invalid({ STORAGE_URL, S3_ACCESS_KEY_ID: 'werkwissen' })).toEqual([
      'S3_SECRET_ACCESS_KEY: is required when STORAGE_URL is set',
    ]);
    valid({ STORAGE_URL, S3_ACCESS_KEY_ID: 'werkwissen', S3_SECRET_ACCESS_KEY: 'geheim-und-lang' });
    expect(valid({}).STORAGE_URL).toBeUndefined();
  });

  it('STORAGE_URL must be an s3:// URL the storage can use', () => {
    const keys = { S3_ACCESS_KEY_ID: 'werkwissen', S3_SECRET_ACCESS_KEY: 'geheim-und-lang' };
    expect(invalid({ STORAGE_URL: 'file:///srv/files', ...keys })).toEqual([
      'STORAGE_URL: must start with s3:// (without it, files stay in DATA_DIR)',
    ]);
  });

  it('IP_COUNTRY_LOOKUP_ENABLED=true requires IP_COUNTRY_LOOKUP_URL', () => {
    expect(keysOf(invalid({ IP_COUNTRY_LOOKUP_ENABLED: 'true' }))).toEqual(['IP_COUNTRY_LOOKUP_URL']);
    valid({ IP_COUNTRY_LOOKUP_ENABLED: 'true', IP_COUNTRY_LOOKUP_URL: 'https://ipapi.example/json' });
  });
});

describe('parseConfig: the outbound policy', () => {
  it('refuses private addresses by default and reads the allow list', () => {
    expect(valid({}).OUTBOUND_ALLOW_PRIVATE).toBe(false);
    expect(valid({}).OUTBOUND_ALLOWED_HOSTS).toBeUndefined();
    const hosts = 'localhost:11434, 10.0.0.0/8,192.168.1.20:8000,[::1]:11434,fd00::/8,::1,ollama.internal';
    expect(valid({ OUTBOUND_ALLOWED_HOSTS: hosts }).OUTBOUND_ALLOWED_HOSTS).toBe(hosts);
    for (const bad of ['http://localhost:11434', 'a b', 'localhost:port', 'localhost/path'])
      expect(keysOf(invalid({ OUTBOUND_ALLOWED_HOSTS: bad })), bad).toEqual(['OUTBOUND_ALLOWED_HOSTS']);
  });
});

describe('parseConfig: operations', () => {
  it('serves no metrics unless a token or a port is set, and drains for eight seconds on SIGTERM', () => {
    const config = valid({});
    expect(config.METRICS_TOKEN).toBeUndefined();
    expect(config.METRICS_PORT).toBeUndefined();
    expect(config.METRICS_HOST).toBe('127.0.0.1');
    expect(config.SHUTDOWN_GRACE_SECONDS).toBe(8);
    expect(valid({ METRICS_PORT: '9464', SHUTDOWN_GRACE_SECONDS: '0' })).toMatchObject({
      METRICS_PORT: 9464,
      SHUTDOWN_GRACE_SECONDS: 0,
    });
    expect(
      keysOf(invalid({ METRICS_TOKEN: 'short', METRICS_PORT: '70000', SHUTDOWN_GRACE_SECONDS: '-1' })),
    ).toEqual(['METRICS_TOKEN', 'METRICS_PORT', 'SHUTDOWN_GRACE_SECONDS']);
  });
});

describe('parseConfig: secrets and URLs are never echoed', () => {
  const MARK = 'Hunter2-Geheim';
  const cases: [string, string][] = [
    ['SMTP_URL', `http://mailer:${MARK}@mail.example:587`],
    ['DATABASE_URL', `mysql://ww:${MARK}@db:3306/werkwissen`],
    ['PUBLIC_URL', `ftp://user:${MARK}@wissen.example`],
    ['API_BASE_URL', `ftp://user:${MARK}@wissen.example/api`],
    ['PRIVACY_URL', `ftp://user:${MARK}@wissen.example/privacy`],
    ['IP_COUNTRY_LOOKUP_URL', `ftp://user:${MARK}@ip.example`],
    ['COMPANY_WEBSITE', `ftp://user:${MARK}@werkwissen.example`],
    ['TOKEN_SIGNING_KEY', MARK],
    ['ENCRYPTION_KEY', MARK],
    ['ALTCHA_HMAC_KEY', MARK],
    ['METRICS_TOKEN', MARK],
    ['STORAGE_URL', `s3://werkwissen:${MARK}@files`],
  ];

  it.each(cases)('%s', (key, value) => {
    const errors = invalid({ [key]: value });
    expect(keysOf(errors)).toEqual([key]);
    const output = formatConfigErrors(errors);
    expect(output).not.toContain(MARK);
    expect(output).not.toContain(value);
  });
});

describe('formatConfigErrors', () => {
  it('starts with the heading and lists every error on its own line', () => {
    const errors = invalid({ PORT: 'abc', APP_MODE: 'enterprise' });
    const output = formatConfigErrors(errors);
    expect(output.startsWith('Environment validation error')).toBe(true);
    const lines = output.split('\n');
    expect(lines).toHaveLength(3);
    for (const error of errors) expect(lines).toContain(`  - ${error}`);
  });
});

describe('toPublicConfig', () => {
  it('contains none of the secret values', () => {
    const secrets = {
      DATABASE_URL: 'postgres://ww:db-Passw0rd-123@db.internal:5432/werkwissen',
      TOKEN_SIGNING_KEY: 'token-signing-key-0123456789abcdefghij',
      GOOGLE_CLIENT_SECRET: 'google-client-secret-0123456789',
      ENCRYPTION_KEY: 'encryption-key-0123456789abcdefghijklmn',
      ALTCHA_HMAC_KEY: 'altcha-hmac-key-0123456789abcdefghijklm',
      BOT_PROTECTION_SECRET: 'recaptcha-secret-value-987',
      SMTP_URL: 'smtps://mailer:smtp-Passw0rd-456@mail.internal:465',
      ADMIN_PASSWORD: 'admin-Passw0rd-789',
      S3_ACCESS_KEY_ID: 'storage-key-id-0123',
      S3_SECRET_ACCESS_KEY: 'storage-secret-0123456789',
    };
    const config = valid({
      ...secrets,
      STORAGE_URL: 's3://files',
      BOT_PROTECTION: 'recaptcha',
      BOT_PROTECTION_SITE_KEY: 'public-site-key',
      GOOGLE_SIGNIN_ENABLED: 'true',
      GOOGLE_CLIENT_ID: 'public-client-id',
    });
    // The secrets did reach the configuration...
    for (const [key, value] of Object.entries(secrets))
      expect(config[key as keyof typeof secrets]).toBe(value);
    // ...but not its public part.
    const json = JSON.stringify(toPublicConfig(config));
    for (const value of Object.values(secrets)) expect(json).not.toContain(value);
    for (const password of ['db-Passw0rd-123', 'smtp-Passw0rd-456', 'db.internal', 'mail.internal']) {
      expect(json).not.toContain(password);
    }
    // The public keys are there, which shows the check looks at the right output.
    expect(json).toContain('public-site-key');
    expect(json).toContain('public-client-id');
  });
});
