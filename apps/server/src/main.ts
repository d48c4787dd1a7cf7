/**
 * The server program: `npm start` runs the API and the worker in one process; `--role=api|worker|all` runs them
 * apart. Configuration comes from the environment and `.env`; an invalid one stops the start with every violation.
 */
import { ConfigError, loadConfig, readEnv } from './config/load-config.ts';
import type { Role } from './server.ts';

const roleArg = process.argv.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? 'all';
if (!['api', 'worker', 'all'].includes(roleArg)) {
  process.stderr.write(`Unknown role "${roleArg}": use --role=api, --role=worker or --role=all\n`);
  process.exit(2);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(readEnv(process.cwd()));
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

try {
  // Loaded once the role and the configuration are known to be good: a wrong one is reported at once, without
  // first evaluating the server's thousand modules (seconds of CPU).
  const { startServer } = await import('./server.ts');
  const server = await startServer({ config, role: roleArg as Role });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (server.url) say(`${config.APP_TITLE} is running at ${server.url} (role: ${roleArg})`);
  else say(`${config.APP_TITLE} worker is running (role: ${roleArg})`);
  const admin = server.firstAdmin;
  if (admin?.state === 'created') say(`First administrator: ${admin.email} (password from ADMIN_PASSWORD)`);
  if (admin?.state === 'setup-link') {
    say(`First administrator: ${admin.email}`);
    say(`Set its password within 7 days with this one-time link: ${admin.link}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`Stopping (${signal})...`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
