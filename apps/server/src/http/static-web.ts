import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const webDistDir = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/**
 * Serves the built web app, and index.html for any other GET that is not an API path (the single-page fallback).
 * Without a build (tests of the API alone) only the API answers.
 */
export async function registerStaticWeb(app: FastifyInstance): Promise<void> {
  if (!existsSync(`${webDistDir}index.html`)) return;
  await app.register(async (web) => {
    web.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), permission: 'public' };
    });
    await web.register(fastifyStatic, { root: webDistDir, wildcard: false, index: ['index.html'] });
    web.get('/*', async (request, reply) => {
      if (request.url.startsWith('/api/')) return reply.callNotFound();
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    });
  });
}
