/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIONS, SUBJECTS } from '../permissions/subjects.ts';
import { LANGUAGES } from './languages.ts';

/** The locale completeness check: every translation has exactly the English keys, filled, with the same placeholders. */

const localesDir = new URL('./locales/', import.meta.url);

function loadLocale(lang: string): unknown {
  return JSON.parse(readFileSync(new URL(`./locales/${lang}.json`, import.meta.url), 'utf8'));
}

/** Flattens nested objects to dotted keys; leaves (strings or anything else) are kept as they are. */
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

const placeholders = (text: string) => [...new Set(text.match(/\{\{\s*[\w.-]+\s*\}\}/g) ?? [])];

const en = flatten(loadLocale('en'));
const translations = LANGUAGES.filter((lang) => lang !== 'en');

describe('locale files', () => {
  it('are exactly one per supported language', () => {
    const files = readdirSync(localesDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .sort();
    expect(files).toEqual([...LANGUAGES].sort());
  });

  it('name every subject and action of the role matrix (no raw key on the roles page)', () => {
    const keys = [
      ...SUBJECTS.map((subject) => `admin.roles.subjects.${subject}`),
      ...ACTIONS.map((action) => `admin.roles.actions.${action}`),
    ];
    expect(keys.filter((key) => typeof en.get(key) !== 'string')).toEqual([]);
  });

  it('en.json (the reference) has only non-empty string values', () => {
    expect(en.size).toBeGreaterThan(0);
    const bad = [...en].filter(([, value]) => typeof value !== 'string' || value.trim() === '');
    expect(
      bad.map(([key]) => key),
      'en.json keys that are not non-empty strings',
    ).toEqual([]);
  });

  describe.each(translations)('%s.json', (lang) => {
    const locale = flatten(loadLocale(lang));

    it('has exactly the keys of en.json', () => {
      const missing = [...en.keys()].filter((key) => !locale.has(key));
      const extra = [...locale.keys()].filter((key) => !en.has(key));
      const message = `${lang}.json: missing keys [${missing.join(', ')}]; extra keys [${extra.join(', ')}]`;
      expect({ missing, extra }, message).toEqual({ missing: [], extra: [] });
    });

    it('has no empty or non-string values', () => {
      const bad = [...locale]
        .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
        .map(([key]) => key);
      expect(bad, `${lang}.json: empty or non-string values at [${bad.join(', ')}]`).toEqual([]);
    });

    it('keeps every {{placeholder}} of the English text', () => {
      const lost: string[] = [];
      for (const [key, english] of en) {
        const translated = locale.get(key);
        if (typeof english !== 'string' || typeof translated !== 'string') continue;
        for (const placeholder of placeholders(english)) {
          if (!translated.includes(placeholder)) lost.push(`${key} ${placeholder}`);
        }
      }
      expect(lost, `${lang}.json: placeholders missing from the translation: ${lost.join('; ')}`).toEqual([]);
    });

    it('uses no {{placeholder}} the English text lacks', () => {
      const unknown: string[] = [];
      for (const [key, translated] of locale) {
        const english = en.get(key);
        if (typeof english !== 'string' || typeof translated !== 'string') continue;
        for (const placeholder of placeholders(translated)) {
          if (!english.includes(placeholder)) unknown.push(`${key} ${placeholder}`);
        }
      }
      expect(unknown, `${lang}.json: placeholders unknown to en.json: ${unknown.join('; ')}`).toEqual([]);
    });
  });
});
