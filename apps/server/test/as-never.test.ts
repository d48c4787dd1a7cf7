import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Types at the seams (issue 32): `as never` silences the type-checker where two types meet (a form resolver, a
 * query, a job handler, another library's declarations) instead of typing the seam, so a changed contract or schema
 * no longer fails the type-check there. Lint (`biome-plugins/no-as-never.grit`) flags it where it is written; this
 * test keeps the few exceptions in one reviewed list, so a `biome-ignore` comment alone does not let a new one in.
 */
const root = new URL('../../../', import.meta.url).pathname;
const FOLDERS = ['apps', 'packages', 'e2e', 'scripts'];

/**
 * The `as never` casts allowed, by file, each with why the seam cannot be typed. Empty: every seam is typed. An
 * entry needs a reason a reviewer accepts, and leaves when its file no longer needs it.
 */
const ALLOWED: Record<string, string> = {};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'test-artifacts'].includes(entry.name) || entry.name.startsWith('.'))
      return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(c|m)?tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

/** The code without its comments (a comment may say "was never", "as never before"). */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

const AS_NEVER = /\bas\s+never\b/;

describe('casts to never', () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)));
  const casting = files.filter((path) =>
    AS_NEVER.test(withoutComments(readFileSync(join(root, path), 'utf8'))),
  );

  it('finds the sources and reads past comments', () => {
    expect(files).toContain('apps/web/src/components/schema-form.ts');
    expect(files).toContain('apps/server/src/jobs/job-queue.ts');
    // Put together here, so that this file holds no cast itself.
    expect(AS_NEVER.test(withoutComments(['const x = y as', 'never;'].join(' ')))).toBe(true);
    expect(
      AS_NEVER.test(withoutComments('// a step that was never queued, as never before\n/* as never */')),
    ).toBe(false);
  });

  it('appears only in the files of the allow-list', () => {
    expect(casting.filter((path) => !(path in ALLOWED))).toEqual([]);
  });

  it('lists only files that still cast, so the list only shrinks', () => {
    expect(Object.keys(ALLOWED).filter((path) => !casting.includes(path))).toEqual([]);
  });
});
