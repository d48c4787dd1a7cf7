import { z } from 'zod';
import { requiredText } from './fields.ts';
import { defineContract } from './route-contract.ts';

export const SEARCH_MODES = ['hybrid', 'fulltext', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const searchHitSchema = z
  .object({
    passageId: z.uuid(),
    fileId: z.uuid(),
    fileName: z.string(),
    mimeType: z.string(),
    divisionId: z.uuid(),
    divisionName: z.string(),
    page: z.number().int().nullable(),
    headingPath: z.array(z.string()),
    text: z.string(),
    score: z.number(),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchQuerySchema = z.object({
  q: requiredText(1000),
  divisionId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  mode: z.enum(SEARCH_MODES).default('hybrid'),
});

export const searchContracts = {
  search: defineContract({
    method: 'GET',
    path: '/search',
    operationId: 'search',
    summary:
      "Hybrid search (full text in each passage's language plus vectors, fused by rank) over the divisions the caller may use",
    tags: ['search'],
    permission: { action: 'read', subject: 'File' },
    querystring: searchQuerySchema,
    responses: { 200: z.object({ items: z.array(searchHitSchema) }) },
  }),
};
