import type { TestProject } from 'vitest/node';
import {
  ensurePgliteTemplate,
  ensurePostgresTemplate,
  PGLITE_TEMPLATE_ENV,
  POSTGRES_TEMPLATE_ENV,
} from './database-template.ts';

declare global {
  /** The template builds of this vitest process, by engine (see `once`). */
  var werkwissenTemplateBuilds: Map<string, Promise<string>> | undefined;
}

/**
 * The projects' global setups run side by side in vitest's one process, each possibly with a copy of this module
 * of its own: the first one to ask for an engine's template builds it, the others wait for that build.
 */
function once(key: string, build: () => Promise<string>): Promise<string> {
  globalThis.werkwissenTemplateBuilds ??= new Map();
  let pending = globalThis.werkwissenTemplateBuilds.get(key);
  if (!pending) {
    pending = build();
    globalThis.werkwissenTemplateBuilds.set(key, pending);
  }
  return pending;
}

/**
 * Before a project's server or browser tests: the migrated template of its engine (database-template.ts), named to
 * the test processes by an environment variable (they start after this, with this process's environment). The
 * project's TEST_DATABASE_URL, else the environment's, says the engine (vitest.config.ts).
 */
export default async function setup(project: TestProject): Promise<void> {
  const postgresUrl = (project.config.env?.TEST_DATABASE_URL ?? process.env.TEST_DATABASE_URL) || null;
  const started = performance.now();
  if (postgresUrl)
    process.env[POSTGRES_TEMPLATE_ENV] = await once(postgresUrl, () => ensurePostgresTemplate(postgresUrl));
  else process.env[PGLITE_TEMPLATE_ENV] = await once('pglite', ensurePgliteTemplate);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`${project.name}: migrated database template ready in ${seconds} s\n`);
}
