import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { e164PhoneField, emailField, languageField, multiLineText, requiredText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

export const employeeSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    phone: z.string().nullable(),
    language: z.enum(LANGUAGES),
    status: z.enum(['invited', 'active']),
    divisions: z.array(z.object({ id: z.uuid(), name: z.string() })),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Employee' });
export type Employee = z.infer<typeof employeeSchema>;

const divisionIds = z.array(z.uuid()).max(1000);

export const createEmployeeBodySchema = z.strictObject({
  email: emailField,
  firstName: requiredText(100),
  lastName: requiredText(100),
  phone: e164PhoneField.optional(),
  language: languageField,
  divisionIds,
});

export const updateEmployeeBodySchema = z.strictObject({
  firstName: requiredText(100).optional(),
  lastName: requiredText(100).optional(),
  phone: e164PhoneField.nullable().optional(),
  language: languageField.optional(),
  divisionIds: divisionIds.optional(),
});

export const importResultSchema = z
  .object({
    created: z.number().int(),
    rejected: z.array(
      z.object({
        row: z.number().int(),
        email: z.string().nullable(),
        errors: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })),
      }),
    ),
  })
  .meta({ id: 'EmployeeImportResult' });
export type EmployeeImportResult = z.infer<typeof importResultSchema>;

/**
 * Columns of the employee import file, each with the locale key of its header: the export writes these headers in
 * the reader's language and the import understands them in every language (and the column names themselves).
 */
export const EMPLOYEE_CSV_COLUMNS = {
  email: 'fields.email',
  firstName: 'fields.firstName',
  lastName: 'fields.lastName',
  phone: 'fields.whatsappPhone',
  language: 'fields.language',
  divisions: 'pages.employees.divisions',
} as const;

const tags = ['employees'];
const params = uuidParam('employeeId');
const permission = { action: 'manage', subject: 'User' } as const;

export const employeeContracts = {
  list: defineContract({
    method: 'GET',
    path: '/employees',
    operationId: 'listEmployees',
    summary: "The company's employees with their divisions (q searches name and e-mail)",
    tags,
    permission,
    querystring: listQuerySchema.extend({
      sort: z.enum(['lastName', '-lastName', 'email', '-email', 'createdAt', '-createdAt']).optional(),
    }),
    responses: { 200: listOf(employeeSchema) },
  }),
  get: defineContract({
    method: 'GET',
    path: '/employees/:employeeId',
    operationId: 'getEmployee',
    summary: 'One employee of the company',
    tags,
    permission,
    params,
    responses: { 200: employeeSchema },
  }),
  create: defineContract({
    method: 'POST',
    path: '/employees',
    operationId: 'createEmployee',
    summary: 'Adds an employee and mails the invitation with a set-password link',
    tags,
    permission,
    body: createEmployeeBodySchema,
    responses: { 201: employeeSchema },
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/employees/:employeeId',
    operationId: 'updateEmployee',
    summary: "Changes an employee's details and divisions",
    tags,
    permission,
    params,
    body: updateEmployeeBodySchema,
    responses: { 200: employeeSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/employees/:employeeId',
    operationId: 'deleteEmployee',
    summary: 'Deletes an employee; their sessions and keys end with them',
    tags,
    permission,
    params,
    responses: { 204: z.null() },
  }),
  import: defineContract({
    method: 'POST',
    path: '/employees/import',
    operationId: 'importEmployees',
    summary: 'Adds employees from CSV text (at most 1000 rows); answers which rows were rejected and why',
    tags,
    permission,
    body: z.strictObject({ csv: multiLineText(1_000_000).min(1, { message: 'validation.required' }) }),
    responses: { 200: importResultSchema },
  }),
  resendInvitation: defineContract({
    method: 'POST',
    path: '/employees/:employeeId/resend-invitation',
    operationId: 'resendInvitation',
    summary: 'Mails a new invitation to an employee who has not set a password yet',
    tags,
    permission,
    params,
    responses: { 200: z.object({ message: z.string() }) },
  }),
};
