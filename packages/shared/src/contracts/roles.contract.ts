import { z } from 'zod';
import { abilityRuleSchema } from '../permissions/ability-rule.ts';
import { ACTIONS, SUBJECTS, USER_KINDS } from '../permissions/subjects.ts';
import { multiLineText, plainText, requiredText, singleLineText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

export const roleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** The user kind whose seeded role this is; null for a custom role. */
    kind: z.enum(USER_KINDS).nullable(),
    description: z.string(),
    rules: z.array(abilityRuleSchema),
    /** A seeded role: reset to its defaults, never deleted or renamed. */
    isSystem: z.boolean(),
    holderCount: z.number().int(),
    /** The caller holds this role themselves (and so may not change it). */
    heldByCaller: z.boolean(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof roleSchema>;

export const roleHolderSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    kind: z.enum(USER_KINDS),
    companyName: z.string().nullable(),
    active: z.boolean(),
  })
  .meta({ id: 'RoleHolder' });
export type RoleHolder = z.infer<typeof roleHolderSchema>;

/** A single action or subject is read as a list of one, so that a refused one is named by its place in the list. */
const listOf1 = <T extends z.ZodType>(item: T) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z.array(item).min(1, { message: 'validation.required' }),
    )
    // Stored as CASL writes it: a list of one is the one.
    .transform((list) => (list.length === 1 ? list[0]! : list));

const noControl = (value: unknown): boolean =>
  typeof value === 'string'
    ? plainText(10_000).safeParse(value).success
    : Array.isArray(value)
      ? value.every(noControl)
      : value && typeof value === 'object'
        ? Object.entries(value).every(([k, v]) => noControl(k) && noControl(v))
        : true;

/** A rule as the roles editor sends it (stored as sent: `abilityRuleSchema` reads it back). */
const editedRuleSchema = z.strictObject({
  action: listOf1(z.enum(ACTIONS)),
  subject: listOf1(z.enum(SUBJECTS)),
  inverted: z.boolean().optional(),
  fields: listOf1(singleLineText(100)).optional(),
  conditions: z
    .record(z.string(), z.unknown())
    .refine(noControl, { message: 'validation.controlCharacters' })
    .optional(),
  reason: singleLineText(500).optional(),
});

const rules = z.array(editedRuleSchema).max(200);
const description = multiLineText(500);

export const createRoleBodySchema = z.strictObject({
  name: requiredText(60),
  description: description.optional(),
  rules,
});

export const updateRoleBodySchema = z.strictObject({
  name: requiredText(60).optional(),
  description: description.optional(),
  rules: rules.optional(),
});

const tags = ['roles'];
const params = uuidParam('roleId');

export const roleContracts = {
  list: defineContract({
    method: 'GET',
    path: '/admin/roles',
    operationId: 'listRoles',
    summary: 'The roles with their rules and how many users hold each (q searches the name)',
    tags,
    permission: { action: 'read', subject: 'Role' },
    querystring: listQuerySchema.extend({
      sort: z.enum(['name', '-name', 'holderCount', '-holderCount']).optional(),
    }),
    responses: { 200: listOf(roleSchema) },
  }),
  get: defineContract({
    method: 'GET',
    path: '/admin/roles/:roleId',
    operationId: 'getRole',
    summary: 'One role with its rules',
    tags,
    permission: { action: 'read', subject: 'Role' },
    params,
    responses: { 200: roleSchema },
  }),
  holders: defineContract({
    method: 'GET',
    path: '/admin/roles/:roleId/holders',
    operationId: 'listRoleHolders',
    summary: 'The users holding a role (q searches name and e-mail)',
    tags,
    permission: { action: 'read', subject: 'Role' },
    params,
    querystring: listQuerySchema,
    responses: { 200: listOf(roleHolderSchema) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/admin/roles',
    operationId: 'createRole',
    summary: 'Adds a custom role for staff members; it grants nothing the caller does not hold',
    tags,
    permission: { action: 'create', subject: 'Role' },
    body: createRoleBodySchema,
    responses: { 201: roleSchema },
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/admin/roles/:roleId',
    operationId: 'updateRole',
    summary: "Renames a custom role or changes a role's rules; its holders' next request follows them",
    tags,
    permission: { action: 'update', subject: 'Role' },
    params,
    body: updateRoleBodySchema,
    responses: { 200: roleSchema },
  }),
  reset: defineContract({
    method: 'POST',
    path: '/admin/roles/:roleId/reset',
    operationId: 'resetRole',
    summary: 'Gives a system role its default rules back',
    tags,
    permission: { action: 'update', subject: 'Role' },
    params,
    responses: { 200: roleSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/admin/roles/:roleId',
    operationId: 'deleteRole',
    summary: 'Deletes a custom role nobody holds',
    tags,
    permission: { action: 'delete', subject: 'Role' },
    params,
    responses: { 204: z.null() },
  }),
};
