import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { multiLineText, requiredText } from './fields.ts';
import type { TemplateVariable } from './mail-template-text.ts';
import { defineContract, messageSchema } from './route-contract.ts';

/** Every kind of mail the product sends; each is a template with a subject and a body per language. */
export const MAIL_TEMPLATE_KINDS = [
  'verifyEmail',
  'passwordReset',
  'setPassword',
  'welcome',
  'uploadFinished',
  'changeEmail',
  'emailChanged',
  'secondFactorFailures',
  'trialEnding',
  'paymentFailed',
  'paymentFinalNotice',
  'planExpired',
  'mailAnswerFailed',
  'connectorPaused',
] as const;
/** The billing kinds: their default text is under `billing.mail.<kind>` in the locale files. */
export const BILLING_MAIL_KINDS: readonly MailTemplateKind[] = [
  'trialEnding',
  'paymentFailed',
  'paymentFinalNotice',
  'planExpired',
];
export type MailTemplateKind = (typeof MAIL_TEMPLATE_KINDS)[number];

const appTitle: TemplateVariable = { name: 'appTitle', required: false };
const actionUrl: TemplateVariable = { name: 'actionUrl', required: true };
const name: TemplateVariable = { name: 'name', required: false };
const newEmail: TemplateVariable = { name: 'newEmail', required: false };

/**
 * The variables each kind provides (their descriptions are the locale keys `emailTemplates.variables.<name>`).
 * Mails that public forms send (sign-up, password reset) have no `name`: the name typed into such a form may not
 * be the recipient's, so it stays out of the mail.
 */
export const MAIL_TEMPLATE_VARIABLES: Record<MailTemplateKind, TemplateVariable[]> = {
  verifyEmail: [appTitle, actionUrl],
  passwordReset: [appTitle, actionUrl],
  setPassword: [
    name,
    appTitle,
    actionUrl,
    { name: 'inviter', required: false },
    { name: 'company', required: false },
  ],
  welcome: [name, appTitle, actionUrl],
  uploadFinished: [
    name,
    appTitle,
    actionUrl,
    { name: 'division', required: false },
    { name: 'files', required: true, list: true },
  ],
  changeEmail: [name, appTitle, actionUrl, newEmail],
  emailChanged: [name, appTitle, actionUrl, newEmail],
  secondFactorFailures: [name, appTitle, actionUrl, { name: 'failures', required: false }],
  trialEnding: [name, appTitle, actionUrl, { name: 'days', required: false }],
  paymentFailed: [name, appTitle, actionUrl, { name: 'attempt', required: false }],
  paymentFinalNotice: [name, appTitle, actionUrl],
  planExpired: [name, appTitle, actionUrl],
  // To whoever wrote to a company's e-mail assistant: no name is known, and the button writes to it again.
  mailAnswerFailed: [
    appTitle,
    actionUrl,
    { name: 'company', required: false },
    { name: 'subject', required: false },
    { name: 'mailbox', required: false },
  ],
  // To whoever connected a source, when its syncs failed too often and it paused.
  connectorPaused: [
    name,
    appTitle,
    actionUrl,
    { name: 'connector', required: false },
    { name: 'division', required: false },
    { name: 'reason', required: false },
  ],
};

export const templateTextSchema = z.strictObject({
  subject: requiredText(200),
  body: multiLineText(10_000).min(1, { message: 'validation.required' }),
});
export type TemplateText = z.infer<typeof templateTextSchema>;

export const templateVariableSchema = z.object({
  name: z.string(),
  required: z.boolean(),
  list: z.boolean(),
  /** In the caller's language. */
  description: z.string(),
});

export const templateLanguageSchema = z
  .object({
    language: z.enum(LANGUAGES),
    subject: z.string(),
    body: z.string(),
    /** The operator changed this language; false: today's default text. */
    edited: z.boolean(),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'EmailTemplateLanguage' });

export const emailTemplateSchema = z
  .object({
    kind: z.enum(MAIL_TEMPLATE_KINDS),
    variables: z.array(templateVariableSchema),
    languages: z.array(templateLanguageSchema),
  })
  .meta({ id: 'EmailTemplate' });

export const emailTemplateSummarySchema = z
  .object({
    kind: z.enum(MAIL_TEMPLATE_KINDS),
    editedLanguages: z.array(z.enum(LANGUAGES)),
    defaultLanguages: z.array(z.enum(LANGUAGES)),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'EmailTemplateSummary' });

export const renderedMailSchema = z
  .object({ subject: z.string(), text: z.string(), html: z.string() })
  .meta({ id: 'RenderedMail' });

/** Template and language in the path; an unknown one is 404 like any absent resource. */
const params = z.object({ kind: z.string().max(64), language: z.string().max(64) });
const tags = ['email templates'];
const read = { action: 'read', subject: 'EmailTemplate' } as const;
const update = { action: 'update', subject: 'EmailTemplate' } as const;

export const emailTemplateContracts = {
  list: defineContract({
    method: 'GET',
    path: '/admin/email-templates',
    operationId: 'listEmailTemplates',
    summary: 'Every mail kind with the languages the operator edited and those still on the default text',
    tags,
    permission: read,
    responses: { 200: z.object({ items: z.array(emailTemplateSummarySchema) }) },
  }),
  get: defineContract({
    method: 'GET',
    path: '/admin/email-templates/:kind',
    operationId: 'getEmailTemplate',
    summary: 'One template: its variables and, per language, subject, body and whether it was edited',
    tags,
    permission: read,
    params: z.object({ kind: z.string().max(64) }),
    responses: { 200: emailTemplateSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/admin/email-templates/:kind/:language',
    operationId: 'updateEmailTemplate',
    summary:
      'Saves one language of a template; an unknown variable or a missing action link is refused (422). The next mail of the kind uses it',
    tags,
    permission: update,
    params,
    body: templateTextSchema,
    responses: { 200: templateLanguageSchema },
  }),
  reset: defineContract({
    method: 'DELETE',
    path: '/admin/email-templates/:kind/:language',
    operationId: 'resetEmailTemplate',
    summary: "Puts one language of a template back to the product's default text",
    tags,
    permission: update,
    params,
    responses: { 200: templateLanguageSchema },
  }),
  preview: defineContract({
    method: 'POST',
    path: '/admin/email-templates/:kind/:language/preview',
    operationId: 'previewEmailTemplate',
    summary: 'Renders a subject and body (saved or not) with sample data, exactly as the mail would go out',
    tags,
    permission: read,
    params,
    body: templateTextSchema,
    responses: { 200: renderedMailSchema },
  }),
  sendTest: defineContract({
    method: 'POST',
    path: '/admin/email-templates/:kind/:language/test',
    operationId: 'sendTestEmail',
    summary: "Sends the saved template with sample data to the caller's own address, through the outbox",
    tags,
    permission: update,
    params,
    responses: { 202: messageSchema.extend({ emailId: z.uuid() }) },
  }),
};
