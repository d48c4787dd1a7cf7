import {
  findTemplateProblem,
  LANGUAGES,
  MAIL_TEMPLATE_KINDS,
  MAIL_TEMPLATE_VARIABLES,
} from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { defaultTemplate } from './default-templates.ts';
import { renderTemplate } from './mail-layout.ts';

const layout = { appTitle: 'Werkwissen', brandColor: '#ff7526' };
const invitationValues = {
  name: 'Anna',
  appTitle: 'Werkwissen',
  actionUrl: 'https://wissen.example/setPassword?token=t1',
  inviter: 'Jörg Müller',
  company: 'Muster GmbH',
};

describe('default templates', () => {
  it.each(MAIL_TEMPLATE_KINDS)('of %s pass their own check in every language', (kind) => {
    for (const lang of LANGUAGES) {
      const { subject, body } = defaultTemplate(kind, lang);
      const variables = MAIL_TEMPLATE_VARIABLES[kind];
      expect(findTemplateProblem(subject, variables, { requireAll: false }), `${kind} ${lang}`).toBeNull();
      expect(findTemplateProblem(body, variables, { requireAll: true }), `${kind} ${lang}`).toBeNull();
    }
  });

  it('render the text part line by line as the body is written, the button as "label: link"', () => {
    const mail = renderTemplate(
      defaultTemplate('setPassword', 'en'),
      'en',
      MAIL_TEMPLATE_VARIABLES.setPassword,
      invitationValues,
      layout,
    );
    expect(mail.subject).toBe('You have been invited to Werkwissen');
    expect(mail.text).toBe(
      [
        'Hello Anna,',
        '',
        'Jörg Müller has invited you to join Muster GmbH on Werkwissen. An account has been created for you: choose your password to sign in.',
        '',
        'Set my password: https://wissen.example/setPassword?token=t1',
        'The link is valid for 7 days.',
        '',
        'If you did not expect this invitation, you can ignore this email.',
        'Your Werkwissen team',
      ].join('\n'),
    );
    expect(mail.html).toContain('href="https://wissen.example/setPassword?token=t1"');
    expect(mail.html).toContain('>Set my password</a>');
    expect(mail.html).toContain('If the button does not work, copy this address into your browser:');
  });

  it('say it differently when the inviting company has no name yet', () => {
    const { body } = defaultTemplate('setPassword', 'de', { companyNamed: false });
    expect(body).not.toContain('{{company}}');
    expect(body).toContain('{{inviter}}');
  });
});

describe('rendering a template', () => {
  it('escapes every value and the template text itself in HTML, but not in the text part', () => {
    const mail = renderTemplate(
      {
        subject: 'Hallo {{name}}',
        body: 'Hallo <b>{{name}}</b> & {{inviter}}\n\n[Los & weiter]({{actionUrl}})',
      },
      'de',
      MAIL_TEMPLATE_VARIABLES.setPassword,
      { ...invitationValues, name: '<img src=x onerror=alert(1)>', inviter: '"Chef" <chef@x>' },
      layout,
    );
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain(
      'Hallo &lt;b&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/b&gt; &amp; &quot;Chef&quot; &lt;chef@x&gt;',
    );
    expect(mail.html).toContain('>Los &amp; weiter</a>');
    expect(mail.text).toContain('Hallo <b><img src=x onerror=alert(1)></b> & "Chef" <chef@x>');
    expect(mail.subject).toBe('Hallo <img src=x onerror=alert(1)>');
  });

  it('fills only the variables of the kind: a name reaches no password-reset mail', () => {
    const mail = renderTemplate(
      { subject: 'Reset', body: 'Hallo {{name}}\n[Los]({{actionUrl}})' },
      'de',
      MAIL_TEMPLATE_VARIABLES.passwordReset,
      { name: 'Typed Into A Form', actionUrl: 'https://x.example/r' },
      layout,
    );
    expect(mail.text).not.toContain('Typed Into A Form');
    expect(mail.html).not.toContain('Typed Into A Form');
  });

  it('shows a list variable on its own line as a list, right to left in Arabic', () => {
    const mail = renderTemplate(
      defaultTemplate('uploadFinished', 'ar'),
      'ar',
      MAIL_TEMPLATE_VARIABLES.uploadFinished,
      {
        name: 'Anna',
        appTitle: 'Werkwissen',
        actionUrl: 'https://x.example/divisions',
        division: 'Heizung',
        files: ['a.pdf: ok', 'b.pdf: <failed>'],
      },
      layout,
    );
    expect(mail.text).toContain('- a.pdf: ok\n- b.pdf: <failed>');
    expect(mail.html).toContain('<li>a.pdf: ok</li><li>b.pdf: &lt;failed&gt;</li>');
    expect(mail.html).toContain('dir="rtl"');
  });
});
