import { z } from 'zod';
import { singleLineText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, messageSchema, uuidParam } from './route-contract.ts';
import { totpCodeBodySchema } from './two-factor.contract.ts';

export const OUTBOX_STATUSES = ['queued', 'sent', 'not_sent', 'failed'] as const;

export const outboxEmailSchema = z
  .object({
    id: z.uuid(),
    to: z.string(),
    template: z.string(),
    language: z.string(),
    subject: z.string(),
    status: z.enum(OUTBOX_STATUSES),
    statusReason: z.string().nullable(),
    attempts: z.number().int(),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OutboxEmail' });

export const outboxEmailDetailSchema = outboxEmailSchema.extend({
  text: z.string(),
  html: z.string(),
  /**
   * The mail carries a single-use link (verification, password reset, invitation, e-mail change): `text` and `html`
   * show its token masked (••••••••); the recipient got the real one.
   */
  hiddenLink: z.boolean(),
});

/** A company's mails that count against its mail budget, in the last hour and day, beside its budget. */
export const emailSenderSchema = z
  .object({
    companyId: z.uuid(),
    companyName: z.string().nullable(),
    /** On a trial: the trial's smaller budget applies. */
    trial: z.boolean(),
    lastHour: z.number().int(),
    lastDay: z.number().int(),
    perHour: z.number().int(),
    perDay: z.number().int(),
    lastMailAt: z.iso.datetime(),
  })
  .meta({ id: 'EmailSender' });

export const activityEntrySchema = z
  .object({
    id: z.uuid(),
    action: z.string(),
    method: z.string(),
    endpoint: z.string(),
    statusCode: z.number().int(),
    actorUserId: z.uuid().nullable(),
    actorEmail: z.string().nullable(),
    /** The operator who made the request while viewing the product as the actor (impersonation). */
    impersonatorEmail: z.string().nullable(),
    companyId: z.uuid().nullable(),
    companyName: z.string().nullable(),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
    /** What a change of platform settings or templates changed. */
    changes: z.object({ before: z.unknown(), after: z.unknown() }).nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ActivityEntry' });

/** The answer's class the activity log filters by. */
export const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

/**
 * The activity log's filters (list and CSV export alike): a period of UTC days (`to` inclusive), the actor's
 * address and the company's name (each a part of it), the action (a part of its name) and the answer's class.
 */
export const activityFilterSchema = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  actor: singleLineText(200).optional(),
  company: singleLineText(200).optional(),
  action: singleLineText(100).optional(),
  status: z.enum(STATUS_CLASSES).optional(),
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;

const tags = ['admin'];

export const adminContracts = {
  listEmails: defineContract({
    method: 'GET',
    path: '/admin/emails',
    operationId: 'listEmails',
    summary: 'The e-mail outbox and log, newest first (q searches recipient and subject)',
    tags,
    permission: { action: 'read', subject: 'Email' },
    querystring: listQuerySchema.extend({ status: z.enum(OUTBOX_STATUSES).optional() }),
    responses: { 200: listOf(outboxEmailSchema) },
  }),
  getEmail: defineContract({
    method: 'GET',
    path: '/admin/emails/:emailId',
    operationId: 'getEmail',
    summary:
      'One e-mail of the outbox with its content (a single-use link masked); each read is noted in the activity log',
    tags,
    permission: { action: 'read', subject: 'Email' },
    params: uuidParam('emailId'),
    responses: { 200: outboxEmailDetailSchema },
  }),
  resendEmail: defineContract({
    method: 'POST',
    path: '/admin/emails/:emailId/resend',
    operationId: 'resendEmail',
    summary:
      'Sends a mail of the outbox again: a new outbox row with the same recipient and content, queued for sending',
    tags,
    permission: { action: 'create', subject: 'Email' },
    params: uuidParam('emailId'),
    responses: { 202: messageSchema.extend({ emailId: z.uuid() }) },
  }),
  revealEmailLink: defineContract({
    method: 'POST',
    path: '/admin/emails/:emailId/reveal-link',
    operationId: 'revealEmailLink',
    summary:
      "The real single-use link of a mail that could not be sent (no SMTP, or failed), to pass on by hand; confirmed with a fresh code of the caller's authenticator, and logged",
    tags,
    permission: { action: 'update', subject: 'Email' },
    params: uuidParam('emailId'),
    body: totpCodeBodySchema,
    responses: { 200: z.object({ link: z.string() }) },
  }),
  listEmailSenders: defineContract({
    method: 'GET',
    path: '/admin/email-senders',
    operationId: 'listEmailSenders',
    summary:
      'The companies whose mails (documents, invitations, e-mail changes) counted against their mail budget in the last day, most first',
    tags,
    permission: { action: 'read', subject: 'Email' },
    querystring: listQuerySchema,
    responses: { 200: listOf(emailSenderSchema) },
  }),
  listActivity: defineContract({
    method: 'GET',
    path: '/admin/activity-log',
    operationId: 'listActivity',
    summary: 'The activity log: every mutating request and sign-in event, newest first',
    tags,
    permission: { action: 'read', subject: 'ActivityLog' },
    querystring: listQuerySchema.extend(activityFilterSchema.shape),
    responses: { 200: listOf(activityEntrySchema) },
  }),
  exportActivity: defineContract({
    method: 'GET',
    path: '/admin/activity-log/export',
    operationId: 'exportActivity',
    summary: 'The filtered activity log as CSV (UTF-8 with BOM), streamed in batches however long it is',
    tags,
    permission: { action: 'read', subject: 'ActivityLog' },
    querystring: activityFilterSchema,
    responses: { 200: z.string().meta({ description: 'text/csv' }) },
  }),
};
