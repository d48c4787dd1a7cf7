import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseConfig } from '@werkwissen/shared';
import type { ServerConfig } from '../../src/config/load-config.ts';
import { type Role, type RunningServer, startServer } from '../../src/server.ts';
import { ApiClient } from './api-client.ts';
import { TEST_SERVER_ENV } from './processes.ts';
import { signIn } from './second-factor.ts';
import { SmtpSink } from './smtp-sink.ts';
import {
  createTestDatabase,
  onPostgres,
  postgresSecrets,
  seedFromTemplate,
  TEST_SECRETS,
  type TestDatabase,
} from './test-database.ts';
import { startTestStorage, type TestStorage } from './test-storage.ts';

export const ADMIN = { email: 'admin@test.example', password: 'admin-pass-1' };

export interface TestServer {
  url: string;
  server: RunningServer;
  smtp: SmtpSink | null;
  logs: string[];
  dataDir: string;
  /** Where the server keeps its files: its data folder, or with TEST_STORAGE=s3 a bucket of the S3 test double. */
  storage: TestStorage;
  client(): ApiClient;
  close(): Promise<void>;
}

/**
 * The real server (API and worker) on a throwaway embedded PGlite, or with TEST_DATABASE_URL on a database of its own
 * on that PostgreSQL (one per data folder, so a restart finds its data); either starts as a copy of the run's migrated
 * template when the global setup made one (database-template.ts). With a real SMTP sink unless `smtp: false`; its
 * files in its data folder, or with TEST_STORAGE=s3 in the S3 test double.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; smtp?: boolean; role?: Role; dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ww-test-'));
  const smtp = options.smtp === false ? null : new SmtpSink();
  const smtpUrl = smtp ? await smtp.start() : undefined;
  const ownDatabase = !options.env?.DATABASE_URL;
  const database: TestDatabase | null =
    onPostgres && ownDatabase ? await createTestDatabase(dataDir, { migrated: true }) : null;
  if (!onPostgres && ownDatabase) seedFromTemplate(dataDir);
  const storage = await startTestStorage(dataDir);
  const parsed = parseConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    // Every test user signs up from 127.0.0.1; the tests of this limit set it low themselves.
    MAIL_FORMS_MAX_PER_ADDRESS_PER_HOUR: '100000',
    ...TEST_SERVER_ENV,
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    ...(database ? { DATABASE_URL: database.url, ...postgresSecrets } : {}),
    ...storage.env,
    ...options.env,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const config: ServerConfig = { ...parsed.config, PORT: 0, dataDir, secrets: TEST_SECRETS };
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const release = async () => {
    await smtp?.stop();
    await storage.close();
    if (!options.dataDir) {
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  };
  const server = await startServer({
    config,
    role: options.role ?? 'all',
    logStream,
    onFatal: (message) => logs.push(JSON.stringify({ level: 60, msg: message })),
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const url = server.url!;
  // Mail links point at PUBLIC_URL; tests follow them against the real port.
  config.PUBLIC_URL = url;
  return {
    url,
    server,
    smtp,
    logs,
    dataDir,
    storage,
    client: () => new ApiClient(url),
    async close() {
      await server.close();
      await release();
    },
  };
}

export const strongPassword = 'sicher-Pass-1';

let counter = 0;
/** A valid registration body with a unique address. */
export function registration(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    email: `user${counter}-${Date.now()}@firma.example`,
    firstName: 'Jörg',
    lastName: 'Müller',
    phone: '+49 151 1234567',
    password: strongPassword,
    confirmPassword: strongPassword,
    language: 'de',
    country: 'DE',
    companyName: 'Müller Haustechnik GmbH',
    acceptTerms: true,
    ...overrides,
  };
}

/** Registers a data manager, confirms the address from the real mail, and returns a signed-in client. */
export async function signedInDataManager(t: TestServer, overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const client = t.client();
  const res = await client.post('/auth/register', body);
  if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  const login = await client.post('/auth/login', {
    email: body.email,
    password: body.password,
    area: 'user',
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { client, email: body.email as string, password: body.password as string, me: login.body };
}

/**
 * A data manager whose address is confirmed, through the verification link of the real mail (needs the SMTP sink):
 * the one who may send mail with their own text or recipients.
 */
export async function verifiedDataManager(t: TestServer, overrides: Record<string, unknown> = {}) {
  const dm = await signedInDataManager(t, overrides);
  const mail = await t.smtp!.waitFor((m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true);
  const res = await dm.client.post('/auth/verify-email', {
    token: new URL(mail.link!).searchParams.get('token'),
  });
  if (res.status !== 200) throw new Error(`verification failed: ${JSON.stringify(res.body)}`);
  return dm;
}

export async function signedInAdmin(t: TestServer) {
  const client = t.client();
  const res = await signIn(t, client, { ...ADMIN, area: 'admin' });
  if (res.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(res.body)}`);
  return client;
}
