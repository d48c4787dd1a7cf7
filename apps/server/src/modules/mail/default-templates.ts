import {
  BILLING_MAIL_KINDS,
  type Language,
  type MailTemplateKind,
  type TemplateText,
} from '@werkwissen/shared';
import { rawTranslation } from '../../i18n/translator.ts';

/** Kinds that inform rather than ask for an action: no expiry and no "if you did not request this". */
const INFORMATIONAL: readonly MailTemplateKind[] = [
  'welcome',
  'uploadFinished',
  'emailChanged',
  'mailAnswerFailed',
  'secondFactorFailures',
  'connectorPaused',
  ...BILLING_MAIL_KINDS,
];

/**
 * Kinds that greet without a name (and offer no `name` variable): those forms open to anyone send (sign-up, password
 * reset), whose recipient may never have chosen the name typed into the form, and the e-mail assistant's notice to
 * whoever wrote to it.
 */
const NAMELESS: readonly MailTemplateKind[] = ['verifyEmail', 'passwordReset', 'mailAnswerFailed'];

/** Kinds with a closing line of their own instead of "if you did not request this": nobody requests an invitation. */
const OWN_CLOSING: readonly MailTemplateKind[] = ['setPassword'];

/**
 * The product's text of a mail kind in a language, assembled from the locale files (`mail.*`) in the template
 * form (`mail-template-text.ts`): what a template shows until the operator edits it, and what a reset restores.
 * An invitation from a company without a name yet says so differently (`bodyWithoutCompany`); an edited
 * invitation says what the operator wrote.
 */
export function defaultTemplate(
  kind: MailTemplateKind,
  lang: Language,
  options: { companyNamed: boolean } = { companyNamed: true },
): TemplateText {
  const t = (key: string) => rawTranslation(lang, key);
  const own = BILLING_MAIL_KINDS.includes(kind) ? `billing.mail.${kind}` : `mail.${kind}`;
  const informational = INFORMATIONAL.includes(kind);
  const bodyKey = kind === 'setPassword' && !options.companyNamed ? 'bodyWithoutCompany' : 'body';
  const lines = [
    t(NAMELESS.includes(kind) ? 'mail.greetingPlain' : 'mail.greeting'),
    '',
    t(`${own}.${bodyKey}`),
    ...(kind === 'uploadFinished' ? ['', '{{files}}'] : []),
    '',
    `[${t(`${own}.action`)}]({{actionUrl}})`,
    ...(informational ? [] : [t(`mail.${kind}.expiry`)]),
    '',
    ...(informational ? [] : [t(OWN_CLOSING.includes(kind) ? `mail.${kind}.ignore` : 'mail.ignore')]),
    t('mail.signature'),
  ];
  return { subject: t(`${own}.subject`), body: lines.join('\n') };
}
