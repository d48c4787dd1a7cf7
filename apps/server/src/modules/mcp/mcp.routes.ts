import { MCP_TOOL_NAMES, mcpContracts } from '@werkwissen/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { noteAction } from '../../http/activity-hook.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import type { EvidenceSearch } from '../chat/evidence-order.ts';

/** Headers of the connection itself, which a Fetch request built from the parsed one does not carry. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host']);

/** The request as the SDK's web-standard transport reads it (its body already parsed by Fastify). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, 'http://mcp.invalid'), { method: request.method, headers });
}

/** What a message asks, for the activity log: `mcp:<tool>` for a tool call, else `mcp:<method>` (known names only). */
function actionOf(body: unknown): string {
  const messages = Array.isArray(body) ? body : [body];
  const names = messages.map((message: { method?: unknown; params?: { name?: unknown } } | null) => {
    const method = message?.method;
    if (method === 'tools/call') {
      const tool = message?.params?.name;
      return typeof tool === 'string' && (MCP_TOOL_NAMES as string[]).includes(tool) ? tool : 'unknownTool';
    }
    return typeof method === 'string' && /^[a-z/_]{1,40}$/i.test(method) ? method : 'response';
  });
  return `mcp:${names.join(',')}`.slice(0, 200);
}

/**
 * The MCP server (Model Context Protocol, Streamable HTTP, stateless) at /api/v1/mcp: every POST is answered on its
 * own, as the caller (an API key's user, with their roles, divisions and rules; a session works too, with its CSRF
 * token). Each message is in the activity log under the tool it called.
 */
export function mcpRoutes(app: FastifyInstance, ctx: AppContext, search: EvidenceSearch): void {
  registerRoute(app, mcpContracts.message, async (req, reply) => {
    const actor = requireActor(req);
    noteAction(req, actionOf(req.body));
    // The MCP SDK serves this one route: it loads with the first call (decision 0056).
    const { answerMcpRequest } = await import('./mcp-server.ts');
    const answer = await answerMcpRequest(
      { ctx, actor, language: requestLanguage(req, ctx), search },
      webRequest(req),
      req.body,
    );
    reply.code(answer.status);
    answer.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    return reply.send(await answer.text());
  });
  // No server-to-client stream: a stateless server has nothing to send outside an answer (the transport's 405).
  registerRoute(app, mcpContracts.stream, async () => {
    throw new AppError('METHOD_NOT_ALLOWED', undefined, { allow: 'POST' });
  });
}
