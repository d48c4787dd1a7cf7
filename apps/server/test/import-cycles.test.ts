import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cycles, type RuntimeImport, runtimeImports } from './support/import-graph.ts';

/**
 * The server's run-time imports form no cycle, between files or between folders: `core` (AppError, Actor, tokens)
 * below, then `db`, `access`, `http`, `jobs`, the modules above them, and the composition root on top (`server.ts`,
 * `build-app.ts` with every module's routes, `job-registry.ts` with every job). Type-only imports do not count: they
 * are erased before anything runs. When this test fails, move what both sides need one layer down, or let the lower
 * side learn of the higher one through a job or a parameter, rather than importing upwards.
 *
 * Counted on main before this test (issue 32): 35 of 44 folders in one cycle (189 folder-to-folder imports inside
 * it), and two cycles between files (divisions, default document and upload services; the WhatsApp jobs and their
 * answerer).
 */
const serverRoot = new URL('..', import.meta.url).pathname;

/** `modules/<name>` for a module's files, else the folder (or the file) right under `src`. */
function folderOf(path: string): string {
  const [, top, name] = path.split('/');
  return top === 'modules' ? `modules/${name}` : top!;
}

function describeCycles(imports: RuntimeImport[], nodeOf: (path: string) => string): string[] {
  const edges = imports
    .map(({ from, to }): [string, string] => [nodeOf(from), nodeOf(to)])
    .filter(([from, to]) => from !== to);
  return cycles(edges).map((group) => {
    const inside = imports.filter(
      ({ from, to }) =>
        nodeOf(from) !== nodeOf(to) && group.includes(nodeOf(from)) && group.includes(nodeOf(to)),
    );
    const lines = inside.map(({ from, to }) => `${from} → ${to}`).sort();
    return `${group.join(', ')}: ${lines.join('; ')}`;
  });
}

describe('run-time imports of the server', async () => {
  const imports = await runtimeImports(serverRoot, 'src');

  it('cover the whole source tree', () => {
    const files = new Set(imports.flatMap(({ from, to }) => [from, to]));
    for (const file of [
      'src/server.ts',
      'src/build-app.ts',
      'src/core/app-error.ts',
      'src/http/request-guard.ts',
    ])
      expect(files).toContain(file);
  });

  it('form no cycle between files', () => {
    expect(describeCycles(imports, (path) => path)).toEqual([]);
  });

  it('form no cycle between folders', () => {
    expect(describeCycles(imports, folderOf)).toEqual([]);
  });
});

describe('the import graph', () => {
  const root = mkdtempSync(join(tmpdir(), 'ww-import-graph-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function write(files: Record<string, string>) {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), text);
    }
  }

  it('counts value and dynamic imports, and leaves type-only ones out', async () => {
    write({
      'src/a/one.ts':
        "import type { Two } from '../b/two.ts';\nimport { three } from '../c/three.ts';\n" +
        'export const one: Two = three;\n',
      'src/b/two.ts':
        "import { one } from '../a/one.ts';\nexport type Two = number;\nexport const two = one;\n",
      'src/c/three.ts':
        "import { type Two } from '../b/two.ts';\nexport const three: Two = 3;\n" +
        "export const later = () => import('../a/one.ts');\n",
      'src/c/three.test.ts': "import { two } from '../b/two.ts';\nexport const test = two;\n",
    });
    const found = await runtimeImports(root, 'src');
    expect(found.map(({ from, to }) => `${from} → ${to}`).sort()).toEqual([
      'src/a/one.ts → src/c/three.ts',
      'src/b/two.ts → src/a/one.ts',
      'src/c/three.ts → src/a/one.ts',
    ]);
    expect(describeCycles(found, folderOf)).toEqual([
      'a, c: src/a/one.ts → src/c/three.ts; src/c/three.ts → src/a/one.ts',
    ]);
  });

  it('finds each group of nodes that reach each other', () => {
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
        ['d', 'e'],
        ['e', 'd'],
        ['f', 'a'],
      ]).sort(),
    ).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });
});
