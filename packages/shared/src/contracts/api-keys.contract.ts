import { z } from 'zod';
import { requiredText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    /** Questions asked with the key (the OpenAI-compatible API). */
    questionCount: z.number().int(),
    expiresAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createApiKeyBodySchema = z.strictObject({
  name: requiredText(100),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});

const tags = ['api-keys'];
const permission = { action: 'manage', subject: 'ApiKey' } as const;

export const apiKeyContracts = {
  list: defineContract({
    method: 'GET',
    path: '/api-keys',
    operationId: 'listApiKeys',
    summary: "The signed-in user's active personal API keys",
    tags,
    permission,
    querystring: listQuerySchema.extend({
      sort: z
        .enum([
          'name',
          '-name',
          'createdAt',
          '-createdAt',
          'lastUsedAt',
          '-lastUsedAt',
          'questionCount',
          '-questionCount',
        ])
        .optional(),
    }),
    responses: { 200: listOf(apiKeySchema) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/api-keys',
    operationId: 'createApiKey',
    summary: 'Creates a personal API key; the secret is returned once and stored only as a hash',
    tags,
    permission,
    body: createApiKeyBodySchema,
    responses: { 201: z.object({ apiKey: apiKeySchema, token: z.string() }) },
  }),
  revoke: defineContract({
    method: 'DELETE',
    path: '/api-keys/:apiKeyId',
    operationId: 'revokeApiKey',
    summary: 'Revokes one of your personal API keys',
    tags,
    permission,
    params: uuidParam('apiKeyId'),
    responses: { 204: z.null() },
  }),
};
