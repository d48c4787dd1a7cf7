import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { meResponseSchema } from './auth.contract.ts';
import { PLAN_KEYS, SUBSCRIPTION_STATUSES } from './billing.contract.ts';
import { importResultSchema } from './employees.contract.ts';
import {
  e164PhoneField,
  emailField,
  languageField,
  multiLineText,
  requiredText,
  singleLineText,
} from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

/** The back office's people: data managers, public users, companies, and viewing the product as a user. */

export const DATA_MANAGER_STATUSES = ['invited', 'active', 'deactivated'] as const;
export type DataManagerStatus = (typeof DATA_MANAGER_STATUSES)[number];

const plan = z.enum(PLAN_KEYS);

export const dataManagerSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    phone: z.string().nullable(),
    language: z.enum(LANGUAGES),
    status: z.enum(DATA_MANAGER_STATUSES),
    companyId: z.uuid(),
    companyName: z.string().nullable(),
    companySuspended: z.boolean(),
    plan: plan.nullable(),
    storageBytes: z.number().int(),
    lastSignInAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'DataManager' });
export type DataManager = z.infer<typeof dataManagerSchema>;

export const dataManagerDetailSchema = dataManagerSchema
  .extend({
    company: z.object({
      id: z.uuid(),
      name: z.string().nullable(),
      suspendedAt: z.iso.datetime().nullable(),
      suspendedReason: z.string().nullable(),
      createdAt: z.iso.datetime(),
    }),
    subscription: z
      .object({ plan, status: z.enum(SUBSCRIPTION_STATUSES), endsAt: z.iso.datetime() })
      .nullable(),
    storage: z.object({ usedBytes: z.number().int(), limitBytes: z.number().int() }),
    employees: z.number().int(),
    /** The company's employees (the first 100 by name), whom the operator may also view the product as. */
    team: z.array(
      z.object({
        id: z.uuid(),
        email: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        status: z.enum(DATA_MANAGER_STATUSES),
      }),
    ),
    divisions: z.array(
      z.object({ id: z.uuid(), name: z.string(), files: z.number().int(), bytes: z.number().int() }),
    ),
    recentSignIns: z.array(
      z.object({ at: z.iso.datetime(), ip: z.string().nullable(), userAgent: z.string().nullable() }),
    ),
    recentActivity: z.array(
      z.object({
        id: z.uuid(),
        action: z.string(),
        method: z.string(),
        endpoint: z.string(),
        statusCode: z.number().int(),
        createdAt: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'DataManagerDetail' });
export type DataManagerDetail = z.infer<typeof dataManagerDetailSchema>;

export const createDataManagerBodySchema = z.strictObject({
  email: emailField,
  firstName: requiredText(100),
  lastName: requiredText(100),
  phone: e164PhoneField.optional(),
  language: languageField,
  companyName: requiredText(200),
});

export const updateDataManagerBodySchema = z.strictObject({
  firstName: requiredText(100).optional(),
  lastName: requiredText(100).optional(),
  phone: e164PhoneField.nullable().optional(),
  language: languageField.optional(),
  companyName: requiredText(200).optional(),
});

/**
 * Columns of the data-manager import file, each with the locale key of its header: the export writes these headers
 * in the reader's language and the import understands them in every language (and the column names themselves).
 */
export const DATA_MANAGER_CSV_COLUMNS = {
  email: 'fields.email',
  firstName: 'fields.firstName',
  lastName: 'fields.lastName',
  phone: 'fields.whatsappPhone',
  language: 'fields.language',
  companyName: 'admin.users.company',
} as const;

export const publicUserSchema = z
  .object({
    /** The person's latest visitor record; the person is everyone who left the same e-mail (else phone) there. */
    id: z.uuid(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    companyId: z.uuid(),
    companyName: z.string().nullable(),
    chats: z.array(z.object({ id: z.uuid(), name: z.string() })),
    firstSeenAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicUser' });
export type PublicUser = z.infer<typeof publicUserSchema>;

export const publicUserDetailSchema = publicUserSchema
  .extend({
    chatUse: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        questions: z.number().int(),
        firstSeenAt: z.iso.datetime(),
        lastSeenAt: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'PublicUserDetail' });
export type PublicUserDetail = z.infer<typeof publicUserDetailSchema>;

export const adminCompanySchema = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    dataManagerEmail: z.string().nullable(),
    plan: plan.nullable(),
    users: z.number().int(),
    storageBytes: z.number().int(),
    lastActivityAt: z.iso.datetime().nullable(),
    suspendedAt: z.iso.datetime().nullable(),
    suspendedReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminCompany' });
export type AdminCompany = z.infer<typeof adminCompanySchema>;

export const suspendCompanyBodySchema = z.strictObject({ reason: requiredText(500) });

export const startImpersonationBodySchema = z.strictObject({ userId: z.uuid() });

/** How long an operator may view the product as a user before the session ends by itself. */
export const IMPERSONATION_MINUTES = 30;

const tags = ['admin'];
/** The back office's pages are guarded by the area; which rows and changes a caller reaches is their User rules'. */
const adminArea = { action: 'read', subject: 'admin' } as const;
const dataManagerParams = uuidParam('dataManagerId');

export const adminPeopleContracts = {
  listDataManagers: defineContract({
    method: 'GET',
    path: '/admin/users/data-managers',
    operationId: 'listDataManagers',
    summary: 'Data managers with their company and plan (q searches name, e-mail and company)',
    tags,
    permission: adminArea,
    querystring: listQuerySchema.extend({
      sort: z
        .enum([
          'lastName',
          '-lastName',
          'email',
          '-email',
          'createdAt',
          '-createdAt',
          'companyName',
          '-companyName',
        ])
        .optional(),
      status: z.enum(DATA_MANAGER_STATUSES).optional(),
    }),
    responses: { 200: listOf(dataManagerSchema) },
  }),
  getDataManager: defineContract({
    method: 'GET',
    path: '/admin/users/data-managers/:dataManagerId',
    operationId: 'getDataManager',
    summary: 'One data manager with company, plan, storage, divisions, recent sign-ins and activity',
    tags,
    permission: adminArea,
    params: dataManagerParams,
    responses: { 200: dataManagerDetailSchema },
  }),
  createDataManager: defineContract({
    method: 'POST',
    path: '/admin/users/data-managers',
    operationId: 'createDataManager',
    summary: 'Adds a company with its data manager and a trial, and mails the invitation',
    tags,
    permission: adminArea,
    body: createDataManagerBodySchema,
    responses: { 201: dataManagerSchema },
  }),
  updateDataManager: defineContract({
    method: 'PATCH',
    path: '/admin/users/data-managers/:dataManagerId',
    operationId: 'updateDataManager',
    summary: "Changes a data manager's details and their company's name",
    tags,
    permission: adminArea,
    params: dataManagerParams,
    body: updateDataManagerBodySchema,
    responses: { 200: dataManagerSchema },
  }),
  deactivateDataManager: defineContract({
    method: 'POST',
    path: '/admin/users/data-managers/:dataManagerId/deactivate',
    operationId: 'deactivateDataManager',
    summary: 'Deactivates a data manager: no sign-in, their sessions and API keys end',
    tags,
    permission: adminArea,
    params: dataManagerParams,
    responses: { 200: dataManagerSchema },
  }),
  reactivateDataManager: defineContract({
    method: 'POST',
    path: '/admin/users/data-managers/:dataManagerId/reactivate',
    operationId: 'reactivateDataManager',
    summary: 'Lets a deactivated data manager sign in again',
    tags,
    permission: adminArea,
    params: dataManagerParams,
    responses: { 200: dataManagerSchema },
  }),
  deleteDataManager: defineContract({
    method: 'DELETE',
    path: '/admin/users/data-managers/:dataManagerId',
    operationId: 'deleteDataManager',
    summary:
      'Deletes a data manager with their company and all its data (files in storage too); `confirmation` is the company name or the e-mail',
    tags,
    permission: adminArea,
    params: dataManagerParams,
    querystring: z.object({ confirmation: singleLineText(254).min(1, { message: 'validation.required' }) }),
    responses: { 204: z.null() },
  }),
  importDataManagers: defineContract({
    method: 'POST',
    path: '/admin/users/data-managers/import',
    operationId: 'importDataManagers',
    summary:
      'Adds data managers (each with a company and a trial) from CSV text; answers the rejected rows and why',
    tags,
    permission: adminArea,
    body: z.strictObject({ csv: multiLineText(1_000_000).min(1, { message: 'validation.required' }) }),
    responses: { 200: importResultSchema },
  }),
  listPublicUsers: defineContract({
    method: 'GET',
    path: '/admin/users/public-users',
    operationId: 'listPublicUsers',
    summary: 'Public-chat visitors who left a name with an e-mail or phone number, one row per person',
    tags,
    permission: adminArea,
    querystring: listQuerySchema.extend({
      sort: z.enum(['name', '-name', 'lastSeenAt', '-lastSeenAt']).optional(),
    }),
    responses: { 200: listOf(publicUserSchema) },
  }),
  getPublicUser: defineContract({
    method: 'GET',
    path: '/admin/users/public-users/:publicUserId',
    operationId: 'getPublicUser',
    summary: 'One public user with the chats they used',
    tags,
    permission: adminArea,
    params: uuidParam('publicUserId'),
    responses: { 200: publicUserDetailSchema },
  }),
  listCompanies: defineContract({
    method: 'GET',
    path: '/admin/companies',
    operationId: 'listCompanies',
    summary: 'All companies with plan, users, storage and last activity (q searches name and data manager)',
    tags,
    permission: adminArea,
    querystring: listQuerySchema.extend({
      sort: z
        .enum(['name', '-name', 'createdAt', '-createdAt', 'lastActivityAt', '-lastActivityAt'])
        .optional(),
      suspended: z.enum(['true', 'false']).optional(),
    }),
    responses: { 200: listOf(adminCompanySchema) },
  }),
  suspendCompany: defineContract({
    method: 'POST',
    path: '/admin/companies/:companyId/suspend',
    operationId: 'suspendCompany',
    summary: "Suspends a company: its users' sign-ins, sessions, API keys and public chats stop",
    tags,
    permission: adminArea,
    params: uuidParam('companyId'),
    body: suspendCompanyBodySchema,
    responses: { 200: adminCompanySchema },
  }),
  resumeCompany: defineContract({
    method: 'POST',
    path: '/admin/companies/:companyId/resume',
    operationId: 'resumeCompany',
    summary: 'Resumes a suspended company',
    tags,
    permission: adminArea,
    params: uuidParam('companyId'),
    responses: { 200: adminCompanySchema },
  }),
  startImpersonation: defineContract({
    method: 'POST',
    path: '/admin/impersonation',
    operationId: 'startImpersonation',
    summary: `Views the product as a data manager or employee for at most ${IMPERSONATION_MINUTES} minutes`,
    tags,
    permission: { action: 'create', subject: 'Impersonation' },
    body: startImpersonationBodySchema,
    responses: { 200: meResponseSchema },
  }),
  endImpersonation: defineContract({
    method: 'POST',
    path: '/auth/impersonation/end',
    operationId: 'endImpersonation',
    summary: "Ends viewing as a user (also after its time limit) and returns to the operator's own session",
    tags: ['auth'],
    permission: 'public',
    responses: { 200: meResponseSchema },
  }),
};
