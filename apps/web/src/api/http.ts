import type { ErrorBody, RouteContract } from '@werkwissen/shared';
import type { z } from 'zod';

/** A failed API call, with the server's stable code, translated message and field details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The per-field messages of a VALIDATION_FAILED answer. */
  get fieldErrors(): Array<{ field: string; code: string; message: string }> {
    const fields = this.details?.fields;
    return Array.isArray(fields) ? (fields as Array<{ field: string; code: string; message: string }>) : [];
  }
}

/**
 * What `call` needs of a contract at run time: its method, path and whether it needs a session. Pages of the first
 * load (`boot-endpoints.ts`) call through these so that the contract modules and zod stay out of it; the contract's
 * type rides along, so input and output stay typed and a path that differs from the contract's fails the type-check.
 */
export type Endpoint<C extends RouteContract> = Pick<C, 'method' | 'path' | 'permission'> & {
  readonly contract?: C;
};

export function endpoint<C extends RouteContract>(e: Pick<C, 'method' | 'path' | 'permission'>): Endpoint<C> {
  return e;
}

type In<T> = T extends z.ZodType ? z.input<T> : undefined;
type Ok<C extends RouteContract> = z.output<C['responses'][keyof C['responses'] & (200 | 201 | 202)]>;

export interface CallOptions<C extends RouteContract> {
  params?: In<C['params']>;
  query?: In<C['querystring']>;
  body?: In<C['body']>;
  signal?: AbortSignal;
  /** Further request headers (a website widget's visitor token). */
  headers?: Record<string, string>;
}

export function readCookie(name: string): string | undefined {
  return document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

let refreshing: Promise<'renewed' | 'refused' | 'unreachable'> | null = null;
/** Called when the session cannot be renewed (set by the auth provider). */
let onSessionLost: () => void = () => {};
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

/** Renews the session once for all callers that found it expired at the same time. */
export function refreshSession(): Promise<'renewed' | 'refused' | 'unreachable'> {
  refreshing ??= fetch('/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'x-csrf-token': readCookie('ww_csrf') ?? '' },
    credentials: 'same-origin',
  })
    .then((res) => (res.ok ? ('renewed' as const) : ('refused' as const)))
    .catch(() => 'unreachable' as const)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * The browser's session cookies change hands when an operator starts or ends viewing the product as another user.
 * Counted here: `epoch` moves when such a change starts and when it ends, `changing` says one is under way.
 */
let epoch = 0;
let changing = 0;

/** Which session a request about to be sent belongs to (for `renewAfter401`). */
export function sessionEpoch(): number {
  return epoch;
}

/**
 * Runs a change of session (starting or ending a view as another user). A 401 to a request sent before or during
 * it is about the session being left (revoked by the change): it neither renews (the refresh cookie may still be
 * that session's) nor ends the session the change stores.
 */
export async function changingSession<T>(change: () => Promise<T>): Promise<T> {
  changing++;
  epoch++;
  try {
    return await change();
  } finally {
    changing--;
    epoch++;
  }
}

/**
 * After a 401 with an error `code` to a request sent in session `sentIn`: renews an expired session (ending the
 * stored one when the server refuses) and says whether the request is worth sending again.
 */
export async function renewAfter401(code: string | undefined, sentIn: number): Promise<boolean> {
  if (code !== 'SESSION_EXPIRED' && code !== 'UNAUTHENTICATED') return false;
  if (changing > 0 || sentIn !== epoch) return false;
  const renewal = await refreshSession();
  if (renewal === 'refused') onSessionLost();
  return renewal === 'renewed';
}

/** The URL of a contract path with its `:params` filled in (encoded) and the query's non-empty values. */
export function buildUrl(path: string, params?: object, query?: object): string {
  let url = `/api/v1${path}`.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown>)?.[name] ?? '')),
  );
  if (query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += `?${s}`;
  }
  return url;
}

/**
 * Sends a request; after a 401 it renews an expired session once and sends it again (`renew` false: never, for
 * requests without a session). A network failure becomes ApiError `NETWORK`; an abort stays an AbortError.
 */
export async function sendRenewing(send: () => Promise<Response>, renew = true): Promise<Response> {
  try {
    const sentIn = epoch;
    const res = await send();
    if (res.status !== 401 || !renew) return res;
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as ErrorBody | null;
    return (await renewAfter401(body?.error?.code, sentIn)) ? await send() : res;
  } catch (error) {
    if ((error as Error).name === 'AbortError' || error instanceof ApiError) throw error;
    throw new ApiError(0, 'NETWORK', '');
  }
}

/**
 * Calls an endpoint by its shared contract: typed input and output, the CSRF header on mutations, and one silent
 * session renewal when the access token has expired.
 */
export async function call<C extends RouteContract>(
  contract: C | Endpoint<C>,
  options: CallOptions<C> = {},
): Promise<Ok<C>> {
  const send = () => {
    const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
    if (contract.method !== 'GET') headers['x-csrf-token'] = readCookie('ww_csrf') ?? '';
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(buildUrl(contract.path, options.params as object, options.query as object), {
      method: contract.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  };
  const res = await sendRenewing(send, contract.permission !== 'public');
  if (res.status === 204) return undefined as Ok<C>;
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const err = (body as ErrorBody | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'INTERNAL', err?.message ?? '', err?.details);
  }
  return body as Ok<C>;
}

/** Sends one file as the multipart part `file` of a PUT (a logo, a default document); the server checks the file. */
export async function putFile<C extends RouteContract>(contract: C, file: File): Promise<Ok<C>> {
  const res = await sendRenewing(() => {
    const form = new FormData();
    form.append('file', file, file.name);
    return fetch(buildUrl(contract.path), {
      method: 'PUT',
      headers: { accept: 'application/json', 'x-csrf-token': readCookie('ww_csrf') ?? '' },
      body: form,
      credentials: 'same-origin',
    });
  });
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const err = (body as ErrorBody | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'INTERNAL', err?.message ?? '', err?.details);
  }
  return body as Ok<C>;
}
