import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { shareTokenField } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import { withFrameAncestors } from './widget-frame-policy.ts';

export const webDistDir = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** The launcher script a website includes to show a public chat's widget (apps/web/public/widget.js). */
export const WIDGET_SCRIPT = 'widget.js';

export interface StaticWebOptions {
  /** The website origins that may frame a share token's widget page (none: nobody may). */
  widgetFrameAncestors(token: string): Promise<string[]>;
}

/**
 * Serves the built web app, and index.html for any other GET that is not an API path (the single-page fallback).
 * The widget page (`/widget/:token`) is the same app, framed only by its widget's allowed websites; the launcher
 * script is the one file other websites load. Without a build (tests of the API alone) only the API answers.
 */
export async function registerStaticWeb(app: FastifyInstance, options: StaticWebOptions): Promise<void> {
  if (!existsSync(`${webDistDir}index.html`)) return;
  await app.register(async (web) => {
    web.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), permission: 'public' };
    });
    await web.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: ['index.html'],
      setHeaders: (reply, path) => {
        // Loaded by <script src> from the company's website: the resource policy must let other origins use it.
        if (path.endsWith(`/${WIDGET_SCRIPT}`)) reply.header('cross-origin-resource-policy', 'cross-origin');
      },
    });
    web.get<{ Params: { token: string } }>('/widget/:token', async (request, reply) => {
      const token = shareTokenField.safeParse(request.params.token);
      const origins = token.success ? await options.widgetFrameAncestors(token.data) : [];
      const policy = String(reply.raw.getHeader('content-security-policy') ?? '');
      // frame-ancestors decides who may frame the page; X-Frame-Options (SAMEORIGIN) would contradict it.
      reply.raw.removeHeader('x-frame-options');
      return reply
        .type('text/html')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', withFrameAncestors(policy, origins))
        .sendFile('index.html');
    });
    web.get('/*', async (request, reply) => {
      if (request.url.startsWith('/api/')) return reply.callNotFound();
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    });
  });
}
