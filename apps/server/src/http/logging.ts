import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/**
 * Secrets a URL carries, whose values never reach the log: query parameters of mail links and WhatsApp's verify
 * token (`hub.verify_token`, sent by Meta to confirm the webhook), and a public chat's share token, in its page
 * (`/p/<token>`), its API (`/api/v1/public/chats/<token>/...`) and the public feedback page (`?chat=<token>`).
 */
const SECRETS_IN_URL: Array<[RegExp, string]> = [
  [/([?&](?:token|key|code|password|hub\.verify_token)=)[^&#]*/gi, '$1[redacted]'],
  [/^(\/p\/|\/api\/v1\/public\/chats\/)[^/?#]+/, '$1[redacted]'],
  [/^(\/feedback-21chatgpt\?(?:[^#]*&)?chat=)[^&#]*/, '$1[redacted]'],
];

/** A request's URL as the log may show it (see SECRETS_IN_URL). */
export function loggedUrl(url: string): string {
  return SECRETS_IN_URL.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), url);
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.confirmPassword',
  '*.token',
  '*.refreshToken',
  '*.accessToken',
  '*.apiKey',
];

/**
 * Properties of an error that carry the values of a failed statement: drizzle's `params` (also appended to its
 * message), pg's `parameters`, and PostgreSQL's `detail` (which quotes the values of a violated key). They can hold
 * password hashes, API-key hashes or sealed provider keys, and never reach the log.
 */
const QUERY_VALUE_KEYS = new Set(['params', 'parameters', 'detail']);
const PARAMS_TAIL = /\nparams: [\s\S]*$/;

function withoutParams(message: string): string {
  return message.replace(PARAMS_TAIL, '');
}

/**
 * Pino's error serializer without the values of a query: the keys above are dropped, the `\nparams:` tail is cut
 * from the message (and from the stack, which repeats it), for the error and every error in its `cause` chain.
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  if (depth > 8) return { type: err.name, message: '[cause chain too deep]' };
  const message = withoutParams(err.message);
  const stack =
    typeof err.stack === 'string'
      ? err.stack.includes(err.message)
        ? err.stack.replace(err.message, message)
        : err.stack.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '')
      : undefined;
  const out: Record<string, unknown> = { type: err.constructor?.name ?? err.name, message, stack };
  for (const [key, value] of Object.entries(err)) {
    if (QUERY_VALUE_KEYS.has(key) || key === 'cause' || key in out) continue;
    out[key] = value instanceof Error ? serializeError(value, depth + 1) : value;
  }
  if (err.cause !== undefined) out.cause = serializeError(err.cause, depth + 1);
  if (err instanceof AggregateError) out.errors = err.errors.map((e) => serializeError(e, depth + 1));
  return out;
}

/** Structured JSON logs; passwords, tokens, cookies, keys and query parameters are redacted or never logged. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    hooks: {
      // `log.error(err)` makes the error's message the line's message, and Fastify logs some errors with
      // `err.message` as the message: cut a query's parameters there too.
      logMethod(args, method) {
        const [first, second] = args as unknown[];
        if (first instanceof Error && args.length === 1) {
          return method.apply(this, [first, withoutParams(first.message)] as Parameters<typeof method>);
        }
        const at = typeof first === 'string' ? 0 : typeof second === 'string' ? 1 : -1;
        if (at >= 0 && (args[at] as string).includes('\nparams: ')) {
          const copy = [...args];
          copy[at] = withoutParams(args[at] as string);
          return method.apply(this, copy as Parameters<typeof method>);
        }
        return method.apply(this, args);
      },
    },
    serializers: {
      err: serializeError,
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: loggedUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
