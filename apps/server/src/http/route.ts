import { errorBodySchema, type RouteContract, type RoutePermission } from '@werkwissen/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { AppError } from '../core/app-error.ts';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
/** A JSON answer as its schema takes it; a file answer (`fileResponse`) is whatever the handler sends. */
type ResponseBody<C extends RouteContract> = {
  [K in keyof C['responses']]: C['responses'][K] extends z.ZodType ? z.input<C['responses'][K]> : unknown;
}[keyof C['responses']];

export type RouteRequest<C extends RouteContract> = FastifyRequest<{
  Body: Out<C['body']>;
  Params: Out<C['params']>;
  Querystring: Out<C['querystring']>;
}>;

export type RouteHandler<C extends RouteContract> = (
  request: RouteRequest<C>,
  reply: FastifyReply,
) => Promise<ResponseBody<C> | undefined>;

export function describePermission(permission: RoutePermission): string {
  if (permission === 'public') return 'Public: no session needed.';
  if (permission === 'signedIn') return 'Any signed-in user (session cookie or API key).';
  return `Requires permission \`${permission.action}\` on \`${permission.subject}\`.`;
}

/**
 * Registers a route from its contract: zod validation of params, query and body, the declared responses (plus the
 * common error body), and the permission the request guard enforces.
 */
export function registerRoute<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: RouteHandler<C>,
) {
  const errorBody = contract.errorBody ?? errorBodySchema;
  app.route({
    method: contract.method,
    url: `/api/v1${contract.path}`,
    config: {
      permission: contract.permission,
      operationId: contract.operationId,
      ...(contract.oauthResource ? { oauthResource: true } : {}),
    },
    schema: {
      operationId: contract.operationId,
      summary: contract.summary,
      description: describePermission(contract.permission),
      tags: contract.tags,
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.querystring ? { querystring: contract.querystring } : {}),
      ...(contract.body ? { body: contract.body } : {}),
      response: { ...contract.responses, '4xx': errorBody, '5xx': errorBody },
    },
    handler: handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

/** The actor of a route that declared a non-public permission (the guard has already checked it). */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('UNAUTHENTICATED');
  return request.actor;
}

export function clientInfo(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
