import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { type AppConfig, formatConfigErrors, parseConfig } from '@werkwissen/shared';

export interface Secrets {
  tokenSigningKey: string;
  encryptionKey: string;
  altchaHmacKey: string;
}

export interface ServerConfig extends AppConfig {
  dataDir: string;
  secrets: Secrets;
}

export class ConfigError extends Error {}

/** Reads `.env` from `cwd` (the real environment wins over it) into a plain object. */
export function readEnv(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string | undefined> {
  const file = join(cwd, '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return { ...fromFile, ...env };
}

/**
 * Validates the configuration once at start. Secrets missing on the embedded default are generated into DATA_DIR
 * (and kept there); with DATABASE_URL the schema already requires them.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): ServerConfig {
  const result = parseConfig(env);
  if (!result.ok) throw new ConfigError(formatConfigErrors(result.errors));
  const config = result.config;
  const dataDir = resolve(cwd, config.DATA_DIR);
  const stored = config.DATABASE_URL ? undefined : readOrCreateSecrets(dataDir);
  const secrets: Secrets = {
    tokenSigningKey: config.TOKEN_SIGNING_KEY ?? stored!.tokenSigningKey,
    encryptionKey: config.ENCRYPTION_KEY ?? stored!.encryptionKey,
    altchaHmacKey: config.ALTCHA_HMAC_KEY ?? stored!.altchaHmacKey,
  };
  return { ...config, dataDir, secrets };
}

function readOrCreateSecrets(dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  mkdirSync(dataDir, { recursive: true });
  const key = () => randomBytes(48).toString('base64url');
  const secrets: Secrets = { tokenSigningKey: key(), encryptionKey: key(), altchaHmacKey: key() };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
