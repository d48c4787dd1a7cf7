/**
 * Rewrites the configuration reference of README.md (between `<!-- config-reference:start -->` and
 * `<!-- config-reference:end -->`) from the zod config schema; appends the section when the markers are missing.
 *
 *   node scripts/write-config-reference.ts [path/to/README.md]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { updateConfigReference } from '../packages/shared/src/config/config-reference.ts';

const target = process.argv[2] ?? fileURLToPath(new URL('../README.md', import.meta.url));
const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
const after = updateConfigReference(before);

if (after === before) {
  console.log(`${target}: configuration reference is up to date`);
} else {
  writeFileSync(target, after);
  console.log(`${target}: configuration reference written`);
}
