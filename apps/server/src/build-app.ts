import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import {
  GOOGLE_BUTTON_ORIGIN_PATH,
  GOOGLE_BUTTON_SCRIPT,
  type RoutePermission,
  UPLOAD_MAX_FILES,
} from '@werkwissen/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { AppContext } from './app-context.ts';
import { AppError } from './core/app-error.ts';
import { isLoggedActivity, recordActivity } from './http/activity-hook.ts';
import { botCheckSources } from './http/bot-check-csp.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRequestGuard } from './http/request-guard.ts';
import { serializerCompiler } from './http/serializer.ts';
import { registerStaticWeb } from './http/static-web.ts';
import { registerMetricsRoute } from './metrics/metrics-endpoint.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { aiProviderRoutes } from './modules/ai-providers/ai-providers.routes.ts';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { twoFactorRoutes } from './modules/auth/two-factor.routes.ts';
import { adminBillingRoutes } from './modules/billing/admin-billing.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { chatRoutes } from './modules/chat/chats.routes.ts';
import { evidenceSearch } from './modules/chat/evidence-order.ts';
import { publicChatRoutes } from './modules/chat/public-chats.routes.ts';
import { publicFeedbackRoutes } from './modules/chat/public-feedback.routes.ts';
import { chatWidgetRoutes } from './modules/chat-widget/chat-widget.routes.ts';
import { widgetFrameAncestors } from './modules/chat-widget/chat-widget.service.ts';
import { companyBrandingRoutes } from './modules/company/company-branding.routes.ts';
import { companyDetailsRoutes } from './modules/company/company-details.routes.ts';
import { connectorRoutes } from './modules/connectors/connectors.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { divisionRoutes } from './modules/divisions/divisions.routes.ts';
import { emailSettingRoutes } from './modules/email-assistant/email-settings.routes.ts';
import { employeeRoutes } from './modules/employees/employees.routes.ts';
import { feedbackRoutes } from './modules/feedback/feedback.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { emailTemplateRoutes } from './modules/mail/email-templates.routes.ts';
import { mcpRoutes } from './modules/mcp/mcp.routes.ts';
import { mcpOAuthRoutes } from './modules/mcp-oauth/oauth.routes.ts';
import { mcpBearerResource } from './modules/mcp-oauth/oauth-bearer.ts';
import { oidcRoutes } from './modules/oidc/oidc.routes.ts';
import { openAiRoutes } from './modules/openai-api/openai-api.routes.ts';
import { peopleRoutes } from './modules/people/people.routes.ts';
import { reportRoutes } from './modules/reports/reports.routes.ts';
import { roleRoutes } from './modules/roles/roles.routes.ts';
import { staffRoutes } from './modules/roles/staff.routes.ts';
import { customerRoutes } from './modules/sales-documents/customers.routes.ts';
import { salesDocumentRoutes } from './modules/sales-documents/sales-documents.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { systemSettingsRoutes } from './modules/settings/system-settings.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { tagRoutes } from './modules/tags/tags.routes.ts';
import { tourRoutes } from './modules/tour/tour.routes.ts';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes.ts';

export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission | 'metricsToken' | 'oauthServer' | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route with its declared permission, for the permission walk in the tests. */
    routeTable: RouteEntry[];
  }
}

/** Builds the HTTP server: security headers, request ids, logs, the guard, every module's routes, the web app. */
export async function buildApp(ctx: AppContext, logger: Logger) {
  const app = Fastify({
    loggerInstance: logger,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && /^[\w-]{8,64}$/.test(sent) ? sent : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: ctx.config.BODY_LIMIT_BYTES,
    trustProxy: ctx.config.TRUST_PROXY,
    // Answered below with the one error body instead (and a translated message).
    return503OnClosing: false,
  }) as unknown as FastifyInstance;

  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Read lazily: plugins mark their own routes in their own onRoute hooks, which run after this one.
      routeTable.push({
        method,
        url: route.url,
        get permission() {
          return route.config?.permission;
        },
      });
    }
  });
  app.decorate('routeTable', routeTable);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // An API answer is its caller's (a signed-in user's data, a visitor's chat): no browser or proxy keeps it. A
    // route whose answer may be kept says so itself (the public logos: `public, max-age=300`).
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
  });

  const botCheck = botCheckSources(ctx.config);
  // Built once: @fastify/helmet built helmet's middleware again for every request (a tenth of a cheap request's time).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Google's button script, its frames, requests and styles (GIS's documented sources).
        scriptSrc: ["'self'", ...botCheck.script, GOOGLE_BUTTON_SCRIPT],
        frameSrc: ["'self'", ...botCheck.frame, GOOGLE_BUTTON_ORIGIN_PATH],
        styleSrc: ["'self'", "'unsafe-inline'", `${GOOGLE_BUTTON_ORIGIN_PATH}style`],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // The phone input's country detection asks its lookup service from the browser (when switched on).
        connectSrc: [
          "'self'",
          GOOGLE_BUTTON_ORIGIN_PATH,
          ...(ctx.config.IP_COUNTRY_LOOKUP_URL ? [new URL(ctx.config.IP_COUNTRY_LOOKUP_URL).origin] : []),
        ],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await app.register(cookie);
  await app.register(multipart, {
    limits: {
      fileSize: ctx.config.UPLOAD_MAX_MB * 1024 * 1024,
      files: UPLOAD_MAX_FILES,
      fields: 10,
      parts: 40,
    },
    // A file over the limit is cut short and reported per file (FILE_TOO_LARGE); the other files still count.
    throwFileSizeLimit: false,
  });
  // A stopping server (see close-gracefully.ts) refuses requests that still arrive on open connections.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new AppError('SERVICE_UNAVAILABLE');
  });
  registerRequestGuard(app, ctx, mcpBearerResource(ctx));
  registerErrorHandler(app, ctx);
  // Latency by route pattern (`/api/v1/files/:fileId`), never by URL, so that the series stay few.
  app.addHook('onResponse', async (request, reply) => {
    ctx.metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.addHook('onResponse', async (request, reply) => {
    if (isLoggedActivity(request)) recordActivity(ctx, request, reply);
  });

  await registerOpenApi(app, ctx);
  if (ctx.config.METRICS_TOKEN) registerMetricsRoute(app, ctx.metrics, 'metricsToken');
  systemRoutes(app, ctx);
  authRoutes(app, ctx);
  twoFactorRoutes(app, ctx);
  publicFeedbackRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  adminRoutes(app, ctx);
  emailTemplateRoutes(app, ctx);
  systemSettingsRoutes(app, ctx);
  oidcRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  divisionRoutes(app, ctx);
  employeeRoutes(app, ctx);
  fileRoutes(app, ctx);
  connectorRoutes(app, ctx);
  searchRoutes(app, ctx, evidenceSearch);
  mcpRoutes(app, ctx, evidenceSearch);
  mcpOAuthRoutes(app, ctx);
  feedbackRoutes(app, ctx);
  tagRoutes(app, ctx);
  reportRoutes(app, ctx);
  aiProviderRoutes(app, ctx);
  companyDetailsRoutes(app, ctx);
  chatRoutes(app, ctx);
  publicChatRoutes(app, ctx);
  chatWidgetRoutes(app, ctx);
  openAiRoutes(app, ctx);
  peopleRoutes(app, ctx);
  roleRoutes(app, ctx);
  staffRoutes(app, ctx);
  billingRoutes(app, ctx);
  adminBillingRoutes(app, ctx);
  companyBrandingRoutes(app, ctx);
  tourRoutes(app, ctx);
  customerRoutes(app, ctx);
  salesDocumentRoutes(app, ctx);
  emailSettingRoutes(app, ctx);
  whatsappRoutes(app, ctx);
  await registerStaticWeb(app, { widgetFrameAncestors: (token) => widgetFrameAncestors(ctx, token) });
  return app;
}
