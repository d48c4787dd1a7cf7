import { existsSync, readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../../apps/server/test/support/test-server.ts';

const dist = new URL('../../apps/web/dist/index.html', import.meta.url).pathname;

/**
 * The real server serving the built web app, on a throwaway database (PGlite, or a database of its own on the
 * PostgreSQL of TEST_DATABASE_URL), with a real SMTP sink (`smtp: false`: without SMTP, as an installation that has
 * none).
 */
export async function startAppServer(
  env: Record<string, string> = {},
  { smtp = true }: { smtp?: boolean } = {},
): Promise<TestServer> {
  if (!existsSync(dist))
    throw new Error('The web app is not built: run "npm run build" (npm test does it first)');
  return startTestServer({ env, smtp });
}

type Tree = { [key: string]: string | Tree };
const cache = new Map<string, Tree>();

/** A translated text, read from the same locale files the app uses. */
export function text(lang: string, key: string, vars: Record<string, string> = {}): string {
  if (!cache.has(lang)) {
    const file = new URL(`../../packages/shared/src/i18n/locales/${lang}.json`, import.meta.url);
    cache.set(lang, JSON.parse(readFileSync(file, 'utf8')) as Tree);
  }
  let node: string | Tree | undefined = cache.get(lang);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}
