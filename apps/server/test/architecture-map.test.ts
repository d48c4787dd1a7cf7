import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `docs/ARCHITECTURE.md` is a map a newcomer reads in ten minutes: short, with a row for every screen folder, and
 * links into `docs/flows/` and `docs/decisions/` that lead somewhere. Details belong in those files, not here.
 */
const root = new URL('../../../', import.meta.url).pathname;
const docs = join(root, 'docs');
const mapPath = join(docs, 'ARCHITECTURE.md');
const map = readFileSync(mapPath, 'utf8');

/** The longest the map may grow; a capability adds a row, its details go to a flow or a decision record. */
const MAX_MAP_LINES = 400;

function markdownFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(folder, name));
}

describe('the architecture map', () => {
  it(`stays within ${MAX_MAP_LINES} lines`, () => {
    expect(map.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_MAP_LINES);
  });

  it('has a row for every folder of apps/web/src/pages', () => {
    const folders = readdirSync(join(root, 'apps/web/src/pages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(0);
    const rows = new Set([...map.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]));
    expect(folders.filter((folder) => !rows.has(folder))).toEqual([]);
  });

  it('links only to files that exist, from the map, the flows and the decisions', () => {
    const files = [mapPath, ...markdownFiles(join(docs, 'flows')), ...markdownFiles(join(docs, 'decisions'))];
    const broken = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)|\]\(([^)#\s]+\/)\)/g)]
        .map((match) => match[1] ?? match[3] ?? '')
        .filter((target) => !existsSync(join(dirname(file), target)))
        .map((target) => `${file.slice(root.length)} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('keeps each decision record in the form context, decision, consequences', () => {
    const records = markdownFiles(join(docs, 'decisions')).filter((file) =>
      /\/\d{4}-[a-z0-9-]+\.md$/.test(file),
    );
    expect(records.length).toBeGreaterThan(0);
    const form = /^# \d{4}\. .+\n\n## Context\n\n[^#]+\n## Decision\n\n[\s\S]+\n## Consequences\n\n\S/;
    const malformed = records.filter((file) => !form.test(readFileSync(file, 'utf8')));
    expect(malformed.map((file) => file.slice(root.length))).toEqual([]);
  });

  it('numbers the decision records once each, in the index', () => {
    const records = markdownFiles(join(docs, 'decisions'))
      .map((file) => file.slice(file.lastIndexOf('/') + 1))
      .filter((name) => /^\d{4}-/.test(name))
      .sort();
    const numbers = records.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    const index = readFileSync(join(docs, 'decisions/README.md'), 'utf8');
    expect(records.filter((name) => !index.includes(`](${name})`))).toEqual([]);
  });
});
