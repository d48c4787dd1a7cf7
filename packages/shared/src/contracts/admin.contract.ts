import { z } from 'zod';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

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

export const outboxEmailDetailSchema = outboxEmailSchema.extend({ text: z.string(), html: z.string() });

export const activityEntrySchema = z
  .object({
    id: z.uuid(),
    action: z.string(),
    method: z.string(),
    endpoint: z.string(),
    statusCode: z.number().int(),
    actorUserId: z.uuid().nullable(),
    actorEmail: z.string().nullable(),
    companyId: z.uuid().nullable(),
    ip: z.string().nullable(),
    /** What a change of platform settings or templates changed. */
    changes: z.object({ before: z.unknown(), after: z.unknown() }).nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ActivityEntry' });

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
    summary: 'One e-mail of the outbox with its content',
    tags,
    permission: { action: 'read', subject: 'Email' },
    params: uuidParam('emailId'),
    responses: { 200: outboxEmailDetailSchema },
  }),
  listActivity: defineContract({
    method: 'GET',
    path: '/admin/activity-log',
    operationId: 'listActivity',
    summary: 'The activity log: every mutating request and sign-in event, newest first',
    tags,
    permission: { action: 'read', subject: 'ActivityLog' },
    querystring: listQuerySchema,
    responses: { 200: listOf(activityEntrySchema) },
  }),
};
