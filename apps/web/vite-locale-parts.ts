import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { textPart } from './src/i18n/text-parts.ts';

const LOCALES = fileURLToPath(new URL('../../packages/shared/src/i18n/locales/', import.meta.url));
const PREFIX = 'virtual:locale/';
const LOADERS = 'virtual:locale-loaders';

/** `virtual:locale-loaders`: for each locale file, a loader per part, each importing its own chunk. */
function loadersModule(): string {
  const languages = readdirSync(LOCALES)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
  const entries = languages.map(
    (l) =>
      `${l}: { first: () => import('${PREFIX}${l}-first'), signedIn: () => import('${PREFIX}${l}-signedIn') }`,
  );
  return `export default {\n${entries.join(',\n')}\n};`;
}

/**
 * `virtual:locale-loaders` and `virtual:locale/<language>-<part>`: one part of a language's locale file (`text-parts.ts`), so that each becomes
 * its own chunk (`en-first-….js`) and the sign-in pages download only the first.
 */
export function localeParts(): Plugin {
  return {
    name: 'werkwissen-locale-parts',
    resolveId: (id) => (id.startsWith(PREFIX) || id === LOADERS ? `\0${id}` : null),
    load(id) {
      if (id === `\0${LOADERS}`) return loadersModule();
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const [language, part] = id.slice(PREFIX.length + 1).split('-');
      if (!/^[a-z]{2}$/.test(language ?? '') || (part !== 'first' && part !== 'signedIn'))
        throw new Error(`unknown locale part ${id}`);
      const file = `${LOCALES}${language}.json`;
      this.addWatchFile(file);
      const picked = textPart(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>, part);
      // JSON.parse of a string literal parses faster than the same object as JavaScript.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}
