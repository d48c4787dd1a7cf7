import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { USER_KINDS } from '../permissions/subjects.ts';
import { emailField, languageField, requiredText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, messageSchema, uuidParam } from './route-contract.ts';

export const STAFF_STATUSES = ['invited', 'active', 'deactivated'] as const;

export const staffMemberSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** Administrator when they hold the Administrator role, else Staff. */
    kind: z.enum(USER_KINDS),
    language: z.enum(LANGUAGES),
    status: z.enum(STAFF_STATUSES),
    roles: z.array(z.object({ id: z.uuid(), name: z.string(), kind: z.enum(USER_KINDS).nullable() })),
    lastSignInAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'StaffMember' });
export type StaffMember = z.infer<typeof staffMemberSchema>;

const roleIds = z.array(z.uuid()).min(1, { message: 'validation.required' }).max(20);

export const inviteStaffBodySchema = z.strictObject({
  email: emailField,
  firstName: requiredText(100),
  lastName: requiredText(100),
  language: languageField,
  roleIds,
});

export const updateStaffBodySchema = z.strictObject({
  firstName: requiredText(100).optional(),
  lastName: requiredText(100).optional(),
  language: languageField.optional(),
  roleIds: roleIds.optional(),
});

const tags = ['staff'];
const params = uuidParam('staffId');
const read = { action: 'read', subject: 'User' } as const;
const update = { action: 'update', subject: 'User' } as const;

export const staffContracts = {
  list: defineContract({
    method: 'GET',
    path: '/admin/staff',
    operationId: 'listStaff',
    summary: "The operator's users (administrators and staff) with roles, status and last sign-in",
    tags,
    permission: read,
    querystring: listQuerySchema.extend({
      sort: z
        .enum([
          'lastName',
          '-lastName',
          'email',
          '-email',
          'lastSignInAt',
          '-lastSignInAt',
          'createdAt',
          '-createdAt',
        ])
        .optional(),
      status: z.enum(STAFF_STATUSES).optional(),
    }),
    responses: { 200: listOf(staffMemberSchema) },
  }),
  get: defineContract({
    method: 'GET',
    path: '/admin/staff/:staffId',
    operationId: 'getStaffMember',
    summary: 'One administrator or staff member',
    tags,
    permission: read,
    params,
    responses: { 200: staffMemberSchema },
  }),
  invite: defineContract({
    method: 'POST',
    path: '/admin/staff',
    operationId: 'inviteStaffMember',
    summary: 'Adds a staff member with their roles and mails the invitation with a set-password link',
    tags,
    permission: { action: 'create', subject: 'User' },
    body: inviteStaffBodySchema,
    responses: { 201: staffMemberSchema },
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/admin/staff/:staffId',
    operationId: 'updateStaffMember',
    summary: "Changes a staff member's details or roles",
    tags,
    permission: update,
    params,
    body: updateStaffBodySchema,
    responses: { 200: staffMemberSchema },
  }),
  deactivate: defineContract({
    method: 'POST',
    path: '/admin/staff/:staffId/deactivate',
    operationId: 'deactivateStaffMember',
    summary: 'Signs a staff member out everywhere and keeps them out until reactivated',
    tags,
    permission: update,
    params,
    responses: { 200: staffMemberSchema },
  }),
  reactivate: defineContract({
    method: 'POST',
    path: '/admin/staff/:staffId/reactivate',
    operationId: 'reactivateStaffMember',
    summary: 'Lets a deactivated staff member sign in again',
    tags,
    permission: update,
    params,
    responses: { 200: staffMemberSchema },
  }),
  resendInvitation: defineContract({
    method: 'POST',
    path: '/admin/staff/:staffId/resend-invitation',
    operationId: 'resendStaffInvitation',
    summary: 'Mails a new invitation to a staff member who has not set a password yet',
    tags,
    permission: update,
    params,
    responses: { 200: messageSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/admin/staff/:staffId',
    operationId: 'deleteStaffMember',
    summary: 'Deletes a staff member; their sessions and keys end with them',
    tags,
    permission: { action: 'delete', subject: 'User' },
    params,
    responses: { 204: z.null() },
  }),
};
