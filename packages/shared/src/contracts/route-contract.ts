import { z } from 'zod';
import type { Action, Subject } from '../permissions/subjects.ts';
import { singleLineText } from './fields.ts';

/**
 * What a route needs: `public` (anyone), `signedIn` (any signed-in user, whatever the role), or a CASL permission.
 * Every route declares one; the server refuses to register a route without it.
 */
export type RoutePermission = 'public' | 'signedIn' | { action: Action; subject: Subject };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One endpoint of the API: the single source of its path, schemas and permission, for server, web and OpenAPI. */
export interface RouteContract {
  method: HttpMethod;
  /** Path below /api/v1, with fastify-style `:param` segments. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  permission: RoutePermission;
  /** Also accepts the access tokens of the MCP authorization server (OAuth 2.1): the MCP server only. */
  oauthResource?: boolean;
  params?: z.ZodObject;
  querystring?: z.ZodObject;
  body?: z.ZodType;
  /** The body is multipart/form-data, read as a stream by the handler (file uploads). */
  multipart?: boolean;
  responses: Record<number, z.ZodType | FileResponse>;
  /** The body of its 4xx and 5xx answers, when not the common one (the OpenAI-compatible door answers OpenAI's). */
  errorBody?: z.ZodType;
}

/** An answer that is a file, not JSON: the content types it comes in, each a binary body. */
export interface FileResponse {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/** The bytes of a file answer; OpenAPI's way to say "binary" (`type: string, format: binary`). */
const fileBytes = z.string().meta({ format: 'binary' });

/**
 * A file answer (a PDF, an XML, an image) in the given content types, so that the OpenAPI document describes it as
 * what the server sends and generated clients download its bytes instead of parsing JSON.
 */
export function fileResponse(description: string, contentTypes: readonly string[]): FileResponse {
  return {
    description,
    content: Object.fromEntries(contentTypes.map((type) => [type, { schema: fileBytes }])),
  };
}

/** Declares a contract while keeping its literal types for the typed client. */
export function defineContract<const C extends RouteContract>(contract: C): C {
  return contract;
}

/** The one error body every endpoint answers with (design/api.md). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      requestId: z.string().optional(),
    }),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const PAGE_SIZES = [5, 10, 20, 25, 50, 100] as const;

/** Query parameters every list takes. */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { message: 'validation.invalid' })
    .default(10),
  sort: z
    .string()
    .regex(/^-?[a-zA-Z]+$/)
    .optional(),
  q: singleLineText(200).optional(),
});

/** The answer shape of every list. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** Path parameters of one UUID, e.g. `uuidParam('fileId')`. */
export const uuidParam = <const N extends string>(name: N) =>
  z.object({ [name]: z.uuid() } as { [K in N]: z.ZodUUID });

export const messageSchema = z.object({ message: z.string() });
