import { z } from 'zod';
import { requiredText } from './fields.ts';
import { defineContract, uuidParam } from './route-contract.ts';

export const divisionSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    employeeCount: z.number().int(),
    fileCount: z.number().int(),
    /** Bytes of the stored originals of the division's files. */
    sizeBytes: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Division' });
export type Division = z.infer<typeof divisionSchema>;

/** Used and total space of the company's files against its plan's storage limit. */
export const storageUsageSchema = z
  .object({ usedBytes: z.number().int(), limitBytes: z.number().int(), maxUploadBytes: z.number().int() })
  .meta({ id: 'StorageUsage' });
export type StorageUsage = z.infer<typeof storageUsageSchema>;

export const divisionBodySchema = z.strictObject({ name: requiredText(80) });

const tags = ['divisions'];
const params = uuidParam('divisionId');

export const divisionContracts = {
  list: defineContract({
    method: 'GET',
    path: '/divisions',
    operationId: 'listDivisions',
    summary: "The company's divisions; an employee gets only the divisions assigned to them",
    tags,
    permission: { action: 'read', subject: 'Division' },
    responses: {
      200: z.object({
        items: z.array(divisionSchema),
        limit: z.number().int(),
        storage: storageUsageSchema,
      }),
    },
  }),
  create: defineContract({
    method: 'POST',
    path: '/divisions',
    operationId: 'createDivision',
    summary: 'Adds a division (within the divisions limit)',
    tags,
    permission: { action: 'create', subject: 'Division' },
    body: divisionBodySchema,
    responses: { 201: divisionSchema },
  }),
  rename: defineContract({
    method: 'PATCH',
    path: '/divisions/:divisionId',
    operationId: 'renameDivision',
    summary: 'Renames a division',
    tags,
    permission: { action: 'update', subject: 'Division' },
    params,
    body: divisionBodySchema,
    responses: { 200: divisionSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/divisions/:divisionId',
    operationId: 'deleteDivision',
    summary: 'Deletes a division with everything in it',
    tags,
    permission: { action: 'delete', subject: 'Division' },
    params,
    responses: { 204: z.null() },
  }),
};
