import { z } from 'zod';
import { emailField, foreignSecretField, requiredText, singleLineText } from './fields.ts';
import { defineContract, uuidParam } from './route-contract.ts';

/** How the SMTP and IMAP connections are secured: none, upgraded by STARTTLS, or TLS from the first byte. */
export const MAIL_SECURITY = ['none', 'starttls', 'tls'] as const;
export type MailSecurity = (typeof MAIL_SECURITY)[number];

/** Spec section 5: at least one allowed e-mail and at most 2 ("You can add a maximum of 2 emails."). */
export const MAX_ALLOWED_EMAILS = 2;

/** A host name (RFC 1123 labels) or an IPv4 or IPv6 address; anything else is "not a valid host". */
const hostField = requiredText(253).refine(
  (v) => z.hostname().safeParse(v).success || z.ipv6().safeParse(v).success,
  { message: 'emailSettings.validation.host' },
);

/** Ports 1 to 65535: the widest of the spec's readings (docs/product.md). */
const portMessage = { message: 'emailSettings.validation.port' };
const portField = z.number(portMessage).int(portMessage).min(1, portMessage).max(65535, portMessage);

/** The SMTP and IMAP details of a mailbox (spec: "SMTP setting"). */
const smtpFields = {
  smtpHost: hostField,
  smtpPort: portField,
  imapHost: hostField,
  imapPort: portField,
  smtpEmail: emailField,
  userName: requiredText(254),
  security: z.enum(MAIL_SECURITY, { message: 'validation.invalid' }),
};

/**
 * The authserv-id of the mailbox's own mail server (RFC 8601: the name it writes first in `Authentication-Results`,
 * e.g. `mx.example.com`): only that server's verdict on a sender is read. Empty: none is (anyone can write the header).
 */
const authservIdField = singleLineText(253)
  .refine((v) => v === '' || z.hostname().safeParse(v).success, { message: 'emailSettings.validation.host' })
  .transform((v) => v.toLowerCase())
  .default('');

const settingFields = {
  fromEmail: emailField,
  allowedEmails: z
    .array(emailField, { message: 'validation.required' })
    .min(1, { message: 'validation.required' })
    .max(MAX_ALLOWED_EMAILS, { message: 'emailSettings.validation.maxAllowedEmails' }),
  divisionId: z.uuid({ message: 'validation.required' }),
  isPrivate: z.boolean(),
  ...smtpFields,
  authservId: authservIdField,
};

/** A new e-mail setting: everything, the password too. */
export const emailSettingCreateSchema = z.strictObject({
  ...settingFields,
  password: foreignSecretField().min(1, { message: 'validation.required' }),
});
export type EmailSettingCreate = z.infer<typeof emailSettingCreateSchema>;

/** A change: an absent or empty password keeps the saved one. */
export const emailSettingUpdateSchema = z.strictObject({
  ...settingFields,
  password: foreignSecretField().optional(),
});
export type EmailSettingUpdate = z.infer<typeof emailSettingUpdateSchema>;

/** "Test connection": the form's SMTP details; of a saved setting (`settingId`) an empty password is the saved one. */
export const emailConnectionTestBodySchema = z.strictObject({
  ...smtpFields,
  password: foreignSecretField().optional(),
  settingId: z.uuid().optional(),
});
export type EmailConnectionTestBody = z.infer<typeof emailConnectionTestBodySchema>;

export const emailConnectionTestSchema = z
  .object({
    smtp: z.object({ ok: z.boolean(), message: z.string().nullable() }),
    imap: z.object({ ok: z.boolean(), message: z.string().nullable() }),
  })
  .meta({ id: 'EmailConnectionTest' });
export type EmailConnectionTest = z.infer<typeof emailConnectionTestSchema>;

/** What the assistant last saw of a mailbox: when it last read it, and why it could not (in the reader's language). */
export const mailboxStatusSchema = z.object({
  checkedAt: z.iso.datetime().nullable(),
  error: z.string().nullable(),
});

export const emailSettingSchema = z
  .object({
    id: z.uuid(),
    fromEmail: z.string(),
    allowedEmails: z.array(z.string()),
    divisionId: z.uuid(),
    divisionName: z.string(),
    isPrivate: z.boolean(),
    smtpHost: z.string(),
    smtpPort: z.number().int(),
    imapHost: z.string(),
    imapPort: z.number().int(),
    smtpEmail: z.string(),
    userName: z.string(),
    security: z.enum(MAIL_SECURITY),
    authservId: z.string(),
    /** Never the password: only whether one is saved. */
    hasPassword: z.boolean(),
    mailbox: mailboxStatusSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'EmailSetting' });
export type EmailSetting = z.infer<typeof emailSettingSchema>;

const tags = ['email-settings'];
const params = uuidParam('settingId');

export const emailSettingContracts = {
  list: defineContract({
    method: 'GET',
    path: '/email-settings',
    operationId: 'listEmailSettings',
    summary: "The company's e-mail settings (the e-mail assistant's mailboxes), passwords never shown",
    tags,
    permission: { action: 'read', subject: 'EmailSetting' },
    responses: { 200: z.object({ items: z.array(emailSettingSchema) }) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/email-settings',
    operationId: 'createEmailSetting',
    summary: 'Adds an e-mail setting with its SMTP and IMAP details (within the plan limits)',
    tags,
    permission: { action: 'create', subject: 'EmailSetting' },
    body: emailSettingCreateSchema,
    responses: { 201: emailSettingSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/email-settings/:settingId',
    operationId: 'updateEmailSetting',
    summary: 'Changes an e-mail setting; an empty password keeps the saved one',
    tags,
    permission: { action: 'update', subject: 'EmailSetting' },
    params,
    body: emailSettingUpdateSchema,
    responses: { 200: emailSettingSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/email-settings/:settingId',
    operationId: 'deleteEmailSetting',
    summary: 'Deletes an e-mail setting; the assistant stops reading its mailbox',
    tags,
    permission: { action: 'delete', subject: 'EmailSetting' },
    params,
    responses: { 204: z.null() },
  }),
  test: defineContract({
    method: 'POST',
    path: '/email-settings/test',
    operationId: 'testEmailConnection',
    summary: 'Signs in to the SMTP and the IMAP server with the given details and says which failed',
    tags,
    permission: { action: 'create', subject: 'EmailSetting' },
    body: emailConnectionTestBodySchema,
    responses: { 200: emailConnectionTestSchema },
  }),
};
