import {
  type ChatCompletion,
  type Citation,
  ERROR_STATUS,
  type ErrorCode,
  type OpenAiCitation,
  type OpenAiErrorBody,
  type OpenAiUsage,
} from '@werkwissen/shared';
import type { DescribedError } from '../../http/error-handler.ts';
import type { Answered } from './openai-api.service.ts';

/** One completion's identity, shared by its chunks: OpenAI's `chatcmpl-` id, its time and the model asked. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

export const identityOf = (messageId: string, model: string, at = new Date()): CompletionIdentity => ({
  id: `chatcmpl-${messageId}`,
  created: Math.floor(at.getTime() / 1000),
  model,
});

/** A stored answer's citations as the extension field `citations` tells them (snake_case, as OpenAI's fields). */
export const citationsOf = (citations: Citation[]): OpenAiCitation[] =>
  citations.map((c) => ({
    n: c.n,
    passage_id: c.passageId,
    file_id: c.fileId,
    file_name: c.fileName,
    division_id: c.divisionId,
    page: c.page,
    heading_path: c.headingPath,
    text: c.text,
  }));

/** A stopped answer (the client left) was cut short: OpenAI's `length`; every other ends with `stop`. */
const finishReason = (answered: Answered) => (answered.answer.status === 'stopped' ? 'length' : 'stop');

/** The non-streamed answer: OpenAI's `chat.completion`, with the citations beside the choices. */
export function completionOf(identity: CompletionIdentity, answered: Answered): ChatCompletion {
  return {
    ...identity,
    object: 'chat.completion',
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answered.answer.content, refusal: null },
        logprobs: null,
        finish_reason: finishReason(answered),
      },
    ],
    usage: answered.usage,
    citations: citationsOf(answered.answer.citations),
  };
}

/**
 * One `chat.completion.chunk` as OpenAI streams it: a delta of the one choice, its finish reason on the last, and
 * `usage: null` on each when the client asked for usage (`stream_options.include_usage`).
 */
export function chunkOf(
  identity: CompletionIdentity,
  delta: { role?: 'assistant'; content?: string; refusal?: null },
  finish: 'stop' | 'length' | null,
  includeUsage: boolean,
  extra: { citations?: OpenAiCitation[] } = {},
) {
  return {
    ...identity,
    object: 'chat.completion.chunk',
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  };
}

/** The last chunk: the finish reason and the citations; then, when asked for, the usage chunk (no choices). */
export function closingChunks(identity: CompletionIdentity, answered: Answered, includeUsage: boolean) {
  const last = chunkOf(identity, {}, finishReason(answered), includeUsage, {
    citations: citationsOf(answered.answer.citations),
  });
  if (!includeUsage) return [last];
  const usage: OpenAiUsage = answered.usage;
  return [
    last,
    { ...identity, object: 'chat.completion.chunk', system_fingerprint: null, choices: [], usage },
  ];
}

export const isErrorCode = (code: string): code is ErrorCode => code in ERROR_STATUS;

/**
 * OpenAI's status for our error: a refused body is 400 (our 422), the plan's monthly questions used up is 429 (as
 * OpenAI's quota), everything else keeps its own.
 */
export function openAiStatus(code: ErrorCode): number {
  if (code === 'VALIDATION_FAILED') return 400;
  if (code === 'PLAN_LIMIT_REACHED') return 429;
  return ERROR_STATUS[code];
}

function typeOf(code: ErrorCode, status: number): string {
  if (code === 'PLAN_LIMIT_REACHED') return 'insufficient_quota';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The first refused field of a validation error: where, and what is wrong with it (translated). */
function refusedField(error: Omit<DescribedError, 'status'>): { field: string; message: string } | null {
  const fields = error.details?.fields;
  if (error.code !== 'VALIDATION_FAILED' || !Array.isArray(fields)) return null;
  const first: unknown = fields[0];
  if (!first || typeof first !== 'object' || !('field' in first) || !('message' in first)) return null;
  return { field: String(first.field), message: String(first.message) };
}

/**
 * Our error in OpenAI's body: `code` our stable code, `message` translated (for a refused body with the first field
 * and what is wrong with it), `param` the field, or `model` for a model that names nothing the caller may ask, and
 * our error's details (every refused field).
 */
export function openAiErrorOf(error: Omit<DescribedError, 'status'>): {
  status: number;
  body: OpenAiErrorBody;
} {
  const status = openAiStatus(error.code);
  const refused = refusedField(error);
  const param = error.code === 'NOT_FOUND' ? 'model' : (refused?.field ?? null);
  const message = refused ? `${error.message} ${refused.field}: ${refused.message}` : error.message;
  const details = error.details ? { details: error.details } : {};
  return {
    status,
    body: { error: { message, type: typeOf(error.code, status), code: error.code, param, ...details } },
  };
}
