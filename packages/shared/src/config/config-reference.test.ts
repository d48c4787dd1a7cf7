/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS } from './config.defaults.ts';
import { type ConfigKey, configShape } from './config.schema.ts';
import {
  CONFIG_REFERENCE_END,
  CONFIG_REFERENCE_START,
  configDescription,
  configReferenceMarkdown,
  configReferenceSection,
  readConfigReference,
  updateConfigReference,
} from './config-reference.ts';

const KEYS = Object.keys(configShape) as ConfigKey[];
const FIX = 'run `npm run docs:config` to regenerate it';

describe('configReferenceMarkdown', () => {
  const table = configReferenceMarkdown();
  const lines = table.split('\n');

  it('every configuration key has a description (also behind .optional())', () => {
    const undocumented = KEYS.filter((key) => !configDescription(key));
    expect(undocumented).toEqual([]);
    expect(configDescription('PUBLIC_URL')).toMatch(/^Address users reach the product at/);
    expect(configDescription('TOKEN_SIGNING_KEY')).toMatch(/^Key that signs access tokens/);
  });

  it('has the header and one row per key, in declaration order', () => {
    expect(lines.slice(0, 2)).toEqual(['| Variable | Default | Description |', '| --- | --- | --- |']);
    expect(lines).toHaveLength(KEYS.length + 2);
    expect(lines.slice(2).map((line) => /^\| `([A-Z0-9_]+)` \|/.exec(line)?.[1])).toEqual(KEYS);
  });

  it('shows the committed default, or — where there is none', () => {
    const row = (key: ConfigKey) => lines.find((line) => line.startsWith(`| \`${key}\` |`));
    expect(row('PORT')).toBe(
      '| `PORT` | `4545` | HTTP port of the server (1-65535; the spec also reads 1-999 and 0-999). |',
    );
    expect(row('MAIL_FROM')).toContain(`| \`${CONFIG_DEFAULTS.MAIL_FROM}\` |`);
    expect(row('GOOGLE_CLIENT_ID')).toMatch(
      /^\| `GOOGLE_CLIENT_ID` \| — \| Identity-provider \(Google\) client id/,
    );
    expect(row('TOKEN_SIGNING_KEY')).toMatch(/^\| `TOKEN_SIGNING_KEY` \| — \| /);
  });

  it('every row has exactly three cells', () => {
    for (const line of lines) expect(line.split(/(?<!\\)\|/).length - 2, line).toBe(3);
  });

  it('is deterministic', () => {
    expect(configReferenceMarkdown()).toBe(table);
  });
});

describe('updateConfigReference', () => {
  const section = configReferenceSection();

  it('appends the section to a README without markers', () => {
    expect(updateConfigReference('# Werkwissen\n\nIntro.\n')).toBe(`# Werkwissen\n\nIntro.\n\n${section}\n`);
    expect(updateConfigReference('')).toBe(`${section}\n`);
  });

  it('replaces an outdated section in place and keeps the text around it', () => {
    const readme = `# Title\n\nBefore.\n\n${CONFIG_REFERENCE_START}\n| old | table |\n${CONFIG_REFERENCE_END}\n\nAfter.\n`;
    expect(updateConfigReference(readme)).toBe(`# Title\n\nBefore.\n\n${section}\n\nAfter.\n`);
  });

  it('is idempotent, and what it writes reads back as the table', () => {
    const once = updateConfigReference('# Title\n');
    expect(updateConfigReference(once)).toBe(once);
    expect(readConfigReference(once)).toEqual({ ok: true, table: configReferenceMarkdown() });
  });

  it('refuses damaged markers', () => {
    expect(() => updateConfigReference(`${CONFIG_REFERENCE_START}\n`)).toThrow(/marker/);
    expect(() => updateConfigReference(`${CONFIG_REFERENCE_END}\n${CONFIG_REFERENCE_START}\n`)).toThrow(
      /before/,
    );
    expect(() => updateConfigReference(`${section}\n${section}\n`)).toThrow(/found 2 and 2/);
  });
});

describe('README.md', () => {
  it('contains the current configuration reference', () => {
    const url = new URL('../../../../README.md', import.meta.url);
    let readme: string;
    try {
      readme = readFileSync(url, 'utf8');
    } catch (error) {
      throw new Error(`cannot read ${url.pathname} (${String(error)}); ${FIX}`);
    }
    const current = readConfigReference(readme);
    if (!current.ok)
      throw new Error(`README.md has no usable configuration reference: ${current.error}; ${FIX}`);
    expect(current.table, `README.md's configuration reference is out of date; ${FIX}`).toBe(
      configReferenceMarkdown(),
    );
  });
});
