import type { ErrorCode } from '@werkwissen/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.ts';
import { AppError } from '../core/app-error.ts';
import { hasTranslation, translate } from '../i18n/translator.ts';
import { requestLanguage } from './request-guard.ts';

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
};

/** A failure as every error body tells it: its stable code, HTTP status and translated message, and its details. */
export interface DescribedError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Describes any failure of a request: our own errors as raised, a refused schema as VALIDATION_FAILED with a translated
 * message per field, the framework's as our codes; anything else is our fault (INTERNAL, logged). Headers an error
 * carries (Retry-After) are set on the reply.
 */
export function describeError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
): DescribedError {
  const lang = requestLanguage(request, ctx);
  if (error instanceof AppError) {
    if (error.headers) reply.headers(error.headers);
    return described(error.code, lang, error.details);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((v) => {
      const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const raw = v.message ?? 'validation.invalid';
      // `validation.*`, or a feature's own `<area>.validation.*` messages.
      const key = /^(\w+\.)?validation\./.test(raw) && hasTranslation(raw) ? raw : 'validation.invalid';
      const params = v.params as { maximum?: unknown; minimum?: unknown; keys?: string[] };
      const unknown = v.keyword === 'unrecognized_keys' ? params.keys : undefined;
      const code = unknown ? 'validation.unknownField' : key;
      return {
        field: unknown
          ? [path, unknown.join(', ')].filter(Boolean).join('.')
          : path || error.validationContext,
        code,
        message: translate(lang, code, { maximum: params.maximum, minimum: params.minimum }),
      };
    });
    return described('VALIDATION_FAILED', lang, { in: error.validationContext, fields });
  }
  const mapped = error.code ? FRAMEWORK_CODES[error.code] : undefined;
  if (mapped) return described(mapped, lang);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return described(error.statusCode === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST', lang);
  }
  request.log.error({ err: error }, 'unhandled error');
  return described('INTERNAL', lang);
}

/** Maps every failure to the one error body, with a translated message; only our own faults are 5xx. */
export function registerErrorHandler(app: FastifyInstance, ctx: AppContext): void {
  app.setErrorHandler((error: FastifyError, request, reply) =>
    send(reply, request, describeError(error, request, reply, ctx)),
  );
  app.setNotFoundHandler((request, reply) =>
    send(reply, request, described('NOT_FOUND', requestLanguage(request, ctx))),
  );
}

/** Our stable code as every error body tells it: its status, and its message in `lang` filled from the details. */
export function described(
  code: ErrorCode,
  lang: Parameters<typeof translate>[0],
  details?: Record<string, unknown>,
): DescribedError {
  // Plain values of the details fill the message's placeholders (e.g. {{seconds}}, {{limitMb}}).
  const vars = details
    ? Object.fromEntries(
        Object.entries(details).filter(([, v]) => typeof v === 'number' || typeof v === 'string'),
      )
    : undefined;
  return {
    status: new AppError(code).status,
    code,
    message: translate(lang, `errors.${code}`, vars),
    ...(details ? { details } : {}),
  };
}

function send(reply: FastifyReply, request: FastifyRequest, error: DescribedError) {
  const { status, ...body } = error;
  return reply.code(status).send({ error: { ...body, requestId: request.id } });
}
