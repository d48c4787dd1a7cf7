import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATE_VARIABLES } from './email-templates.contract.ts';
import {
  BUTTON_LINE,
  fillPlaceholders,
  findTemplateProblem,
  templateVariables,
} from './mail-template-text.ts';

const invitation = MAIL_TEMPLATE_VARIABLES.setPassword;
const body = (text: string) => findTemplateProblem(text, invitation, { requireAll: true });

describe('e-mail template text', () => {
  it('accepts the variables of its kind, with or without spaces inside the braces', () => {
    expect(body('Hallo {{ name }}, {{inviter}} lädt Sie ein.\n\n[Los]({{actionUrl}})')).toBeNull();
  });

  it('refuses a variable the kind does not provide, naming it', () => {
    expect(body('Hallo {{firstName}}\n[Los]({{actionUrl}})')).toEqual({
      code: 'TEMPLATE_VARIABLE_UNKNOWN',
      variable: 'firstName',
    });
    // A password-reset mail offers no name: the form's name may not be the recipient's.
    expect(
      findTemplateProblem('Hallo {{name}} [x]({{actionUrl}})', MAIL_TEMPLATE_VARIABLES.passwordReset, {
        requireAll: true,
      }),
    ).toEqual({ code: 'TEMPLATE_VARIABLE_UNKNOWN', variable: 'name' });
  });

  it('refuses a body without the action link, but not a subject', () => {
    expect(body('Hallo {{name}}, bitte melden Sie sich.')).toEqual({
      code: 'TEMPLATE_VARIABLE_MISSING',
      variable: 'actionUrl',
    });
    expect(findTemplateProblem('Einladung zu {{appTitle}}', invitation, { requireAll: false })).toBeNull();
    expect(
      findTemplateProblem('{{files}} [x]({{actionUrl}})', MAIL_TEMPLATE_VARIABLES.uploadFinished, {
        requireAll: true,
      }),
    ).toBeNull();
    expect(
      findTemplateProblem('[x]({{actionUrl}})', MAIL_TEMPLATE_VARIABLES.uploadFinished, { requireAll: true }),
    ).toEqual({ code: 'TEMPLATE_VARIABLE_MISSING', variable: 'files' });
  });

  it('refuses braces that enclose no variable name', () => {
    expect(body('Hallo {{name}\n[Los]({{actionUrl}})')).toEqual({
      code: 'TEMPLATE_SYNTAX_INVALID',
      text: '{{',
    });
    expect(body('Hallo }} {{actionUrl}}')).toEqual({ code: 'TEMPLATE_SYNTAX_INVALID', text: '}}' });
    expect(body('Hallo {{first name}} {{actionUrl}}')).toEqual({
      code: 'TEMPLATE_SYNTAX_INVALID',
      text: '{{first name}}',
    });
  });

  it('lists, fills and recognises buttons', () => {
    expect(templateVariables('{{a}} {{ b }} {{a}}')).toEqual(['a', 'b']);
    expect(fillPlaceholders('Hallo {{ name }}!', (n) => (n === 'name' ? 'Anna' : '?'))).toBe('Hallo Anna!');
    expect(BUTTON_LINE.exec('  [Passwort festlegen]( {{ actionUrl }} ) ')?.[1]).toBe('Passwort festlegen');
    expect(BUTTON_LINE.test('Klicken Sie [hier]({{actionUrl}})')).toBe(false);
    expect(BUTTON_LINE.test('[hier](https://example.com)')).toBe(false);
  });
});
