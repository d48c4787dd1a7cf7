import { describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.ts';
import { freePort, processesPerTest, START_WAIT_MS } from './support/processes.ts';
import { SmtpSink } from './support/smtp-sink.ts';
import { createTestDatabase, onPostgres, postgresSecrets } from './support/test-database.ts';
import { registration } from './support/test-server.ts';

const { start, tempDir } = processesPerTest('ww-proc-');

/** One database for several processes: the test PostgreSQL, or PGlite served on a port by `npm run db`. */
async function sharedDatabaseUrl(): Promise<string> {
  if (onPostgres) return (await createTestDatabase()).url;
  const dbPort = await freePort();
  const db = start([], { DATA_DIR: tempDir(), DB_PORT: String(dbPort) }, 'src/db/standalone-db.ts');
  await db.waitFor('DATABASE_URL=');
  return `postgres://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
}

// Four processes start on two cores beside the other test files: the same budget as the other process tests.
describe('API and worker as separate processes on one database', { timeout: START_WAIT_MS + 180_000 }, () => {
  it('processes each job exactly once with two workers, and the API alone processes none', async () => {
    const databaseUrl = await sharedDatabaseUrl();
    const smtp = new SmtpSink();
    const smtpUrl = await smtp.start();
    try {
      const env = {
        DATABASE_URL: databaseUrl,
        ...postgresSecrets,
        ADMIN_PASSWORD: 'admin-pass-1',
        SMTP_URL: smtpUrl,
        DATA_DIR: tempDir(),
        // Twelve sign-ups from one address: above the default limit of the forms that send mail.
        MAIL_FORMS_MAX_PER_ADDRESS_PER_HOUR: '100',
      };
      const apiPort = await freePort();
      const api = start(['--role=api'], { ...env, PORT: String(apiPort) });
      await api.waitFor('is running at');
      const client = new ApiClient(`http://127.0.0.1:${apiPort}`);
      const bodies = Array.from({ length: 12 }, () => registration());
      for (const body of bodies) expect((await client.post('/auth/register', body)).status).toBe(201);
      await new Promise((r) => setTimeout(r, 2000));
      expect(smtp.mails).toHaveLength(0);

      const workers = [start(['--role=worker'], env), start(['--role=worker'], env)];
      await Promise.all(workers.map((w) => w.waitFor('worker is running')));
      for (const body of bodies) await smtp.waitFor((m) => m.to.includes(body.email), 60_000);
      await new Promise((r) => setTimeout(r, 3000));
      const ids = smtp.mails.map((m) => m.emailId);
      expect(ids).toHaveLength(bodies.length);
      expect(new Set(ids).size).toBe(bodies.length);
    } finally {
      await smtp.stop();
    }
  });
});
