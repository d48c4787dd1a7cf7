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

/** Maps every failure to the one error body, with a translated message; only our own faults are 5xx. */
export function registerErrorHandler(app: FastifyInstance, ctx: AppContext): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = requestLanguage(request, ctx);
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return send(reply, request, error.code, lang, error.details);
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
      return send(reply, request, 'VALIDATION_FAILED', lang, { in: error.validationContext, fields });
    }
    const mapped = error.code ? FRAMEWORK_CODES[error.code] : undefined;
    if (mapped) return send(reply, request, mapped, lang);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, request, error.statusCode === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST', lang);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 'INTERNAL', lang);
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, request, 'NOT_FOUND', requestLanguage(request, ctx)),
  );
}

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  lang: Parameters<typeof translate>[0],
  details?: Record<string, unknown>,
) {
  const status = new AppError(code).status;
  // Plain values of the details fill the message's placeholders (e.g. {{seconds}}, {{limitMb}}).
  const vars = details
    ? Object.fromEntries(
        Object.entries(details).filter(([, v]) => typeof v === 'number' || typeof v === 'string'),
      )
    : undefined;
  return reply.code(status).send({
    error: {
      code,
      message: translate(lang, `errors.${code}`, vars),
      ...(details ? { details } : {}),
      requestId: request.id,
    },
  });
}
