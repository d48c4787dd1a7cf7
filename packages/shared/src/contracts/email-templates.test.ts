import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATE_KINDS } from './email-templates.contract.ts';

const en = JSON.parse(readFileSync(new URL('../i18n/locales/en.json', import.meta.url), 'utf8'));

describe('mail kinds', () => {
  it('each have the name and description the templates page shows', () => {
    const { kinds, descriptions } = en.admin.templates;
    expect(MAIL_TEMPLATE_KINDS.filter((k) => typeof kinds[k] !== 'string')).toEqual([]);
    expect(MAIL_TEMPLATE_KINDS.filter((k) => typeof descriptions[k] !== 'string')).toEqual([]);
  });
});
