import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** One import that runs: `from` loads `to` when it is loaded (or, for a dynamic import, when that line runs). */
export interface RuntimeImport {
  from: string;
  to: string;
}

/**
 * The run-time imports between the TypeScript files under `root/folder` (tests left out), as esbuild resolves them
 * when it bundles each file: `import type` and type-only specifiers are erased as TypeScript erases them, so only
 * imports that load a module at run time remain. Paths are relative to `root`.
 */
export async function runtimeImports(root: string, folder: string): Promise<RuntimeImport[]> {
  const entryPoints = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints,
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outdir: 'import-graph',
    logLevel: 'silent',
  });
  const inFolder = (path: string) => path.startsWith(`${folder}/`);
  return Object.entries(metafile.inputs)
    .filter(([from]) => inFolder(from))
    .flatMap(([from, input]) =>
      input.imports
        .filter((entry) => !entry.external && inFolder(entry.path))
        .map((entry) => ({ from, to: entry.path })),
    );
}

/** The groups of nodes that reach each other (Tarjan's strongly connected components), those of two or more. */
export function cycles(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return groups;
}
