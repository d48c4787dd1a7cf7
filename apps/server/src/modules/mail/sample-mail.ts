import type { Language, MailTemplateKind } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';
import type { OutgoingMail } from './outbox.service.ts';

/** Where each kind's button leads, with a token that opens nothing. */
const SAMPLE_PATHS: Record<MailTemplateKind, string> = {
  verifyEmail: '/verify?token=sample',
  passwordReset: '/confirm-password?token=sample',
  setPassword: '/setPassword?token=sample',
  welcome: '/login',
  uploadFinished: '/divisions',
  changeEmail: '/confirm-email?token=sample',
  emailChanged: '/login',
  secondFactorFailures: '/forgot-password',
  trialEnding: '/account-settings/billing',
  paymentFailed: '/account-settings/billing',
  paymentFinalNotice: '/account-settings/billing',
  planExpired: '/account-settings/billing',
  mailAnswerFailed: '',
  connectorPaused: '/divisions',
};

/** Kinds whose button is no page of the product: the e-mail assistant's notice writes to the assistant again. */
const SAMPLE_URLS: Partial<Record<MailTemplateKind, string>> = {
  mailAnswerFailed: 'mailto:assistant@example.com?subject=Re%3A%20Radiator',
};

/** A mail of the kind with sample values, for the preview and the test send of a template. */
export function sampleMail(kind: MailTemplateKind, language: Language): Omit<OutgoingMail, 'to'> {
  const t = (key: string, vars?: Record<string, unknown>) => translate(language, key, vars);
  return {
    template: kind,
    language,
    name: 'Anna',
    actionPath: SAMPLE_PATHS[kind],
    actionUrl: SAMPLE_URLS[kind],
    values: {
      inviter: 'Jörg Müller',
      company: t('emailTemplates.sample.company'),
      division: t('emailTemplates.sample.division'),
      newEmail: 'anna.neu@example.com',
      days: '3',
      attempt: '1',
      subject: t('emailTemplates.sample.subject'),
      mailbox: 'assistant@example.com',
      failures: '5',
      connector: 'Nextcloud',
      reason: t('connectors.failure.auth'),
    },
    lines: [
      `price-list-2025.pdf: ${t('mail.uploadFinished.ready', { passages: '42' })}`,
      `scan.pdf: ${t('mail.uploadFinished.failed', { reason: t('errors.FILE_NO_TEXT') })}`,
    ],
  };
}
