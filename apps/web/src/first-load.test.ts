// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));

/**
 * The packages the first visit of a page carries: the app bundled from its entry as Vite splits it (esbuild, with
 * the same tree-shaking of side-effect-free modules), the output of each given module (the entry, a lazily loaded
 * page) and the outputs they import statically; the other lazily loaded pages, layouts and libraries are left out.
 */
async function firstLoadPackages(entry: string, pages: string[]): Promise<Set<string>> {
  const result = await build({
    absWorkingDir: src,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: '/first-load',
    write: false,
    metafile: true,
    logLevel: 'silent',
    jsx: 'automatic',
    // The app's only file of another kind it imports: a style sheet, no package.
    loader: { '.css': 'empty' },
    plugins: [
      {
        name: 'vite-only-modules',
        setup(b) {
          // Vite's virtual modules (the locale parts), aliases and asset imports ("?url"): none of them a package.
          b.onResolve({ filter: /^(?:virtual:|@pdfjs-dist-data)|\?/ }, (args) => ({
            path: args.path,
            external: true,
          }));
        },
      },
    ],
  });
  const outputs = result.metafile.outputs;
  const reached = new Set<string>();
  const visit = (output: string) => {
    if (reached.has(output)) return;
    reached.add(output);
    for (const i of outputs[output]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  // Each lazily imported module is an entry point of its own, with an output of its own.
  for (const module of [entry, ...pages]) {
    const output = Object.keys(outputs).find((o) => outputs[o]!.entryPoint === module);
    if (!output) throw new Error(`${module} is not bundled as a module of its own`);
    visit(output);
  }
  return new Set(
    [...reached].flatMap((o) =>
      Object.keys(outputs[o]!.inputs)
        .map(packageOf)
        .filter((p) => p !== null),
    ),
  );
}

function packageOf(input: string): string | null {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? match[1]! : null;
}

describe('first load', () => {
  // Decision 0019: zod loads with the first form a user types in, CASL for a signed-in user, react-hook-form with every
  // form but the sign-in one. The route manifest once imported two constants from the connectors' contracts, and zod
  // (about 25 KB gzipped) came back into every first load unnoticed.
  it('the sign-in page carries no zod, CASL or form library', async () => {
    const packages = await firstLoadPackages('main.tsx', ['pages/auth/login-page.tsx']);
    expect(packages).toContain('react-dom');
    expect([...packages].filter((p) => ['zod', '@casl/ability', 'react-hook-form'].includes(p))).toEqual([]);
  }, 60_000);
});
