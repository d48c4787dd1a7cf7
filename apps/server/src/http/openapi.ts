import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { fileContracts, type RouteContract, systemSettingsContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.ts';

type OpenApiDocument = { paths?: Record<string, Record<string, Record<string, unknown>>> };

/** Multipart routes read their body as a stream (no zod body): describe it in the document by hand. */
function withMultipartBodies(document: OpenApiDocument): OpenApiDocument {
  const contracts = [
    ...Object.values(fileContracts),
    ...Object.values(systemSettingsContracts),
  ] as RouteContract[];
  for (const contract of contracts) {
    if (!contract.multipart) continue;
    // Uploads of files take a list of parts `files`; the logo takes one part `file`.
    const field = contract === systemSettingsContracts.uploadLogo ? 'file' : 'files';
    const binary = { type: 'string', format: 'binary' };
    const path = `/api/v1${contract.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
    const operation = document.paths?.[path]?.[contract.method.toLowerCase()];
    if (!operation) continue;
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { [field]: field === 'files' ? { type: 'array', items: binary } : binary },
            required: [field],
          },
        },
      },
    };
  }
  return document;
}

/** The OpenAPI 3.1 document, generated from the zod contracts, at /api/v1/openapi.json and browsable at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${ctx.config.APP_TITLE} API`,
        version: '1',
        description:
          'Browser clients authenticate with httpOnly session cookies and send the `x-csrf-token` header on mutating ' +
          'requests; scripts use `Authorization: Bearer <personal API key>`. Errors share one body: ' +
          '`{ "error": { "code", "message", "details", "requestId" } }`, except at the OpenAI-compatible door ' +
          '(`/api/v1/openai/v1`, tag `openai`), which answers OpenAI\'s `{ "error": { "message", "type", "code", ' +
          '"param" } }` (docs/connect/openai.md).',
      },
      servers: [{ url: ctx.config.PUBLIC_URL }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Personal API key (ww_...)' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'ww_access' },
        },
      },
      security: [{ apiKey: [] }, { sessionCookie: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => withMultipartBodies(jsonSchemaTransformObject(input) as OpenApiDocument),
  });
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), permission: 'public' };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
    docs.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}
