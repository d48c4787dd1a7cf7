import type { RouteContract } from '@werkwissen/shared';
import * as shared from '@werkwissen/shared';
import { afterEach, vi } from 'vitest';
import type { z } from 'zod';

/**
 * A fake of the API for web tests, typed from the shared contracts: a test answers a contract (not a hand-written
 * path), so a handler's answer is type-checked against the contract's response type and validated at run time by
 * its zod schema; a request the contract would refuse, a request to a path no contract has, and a request no handler
 * answers fail the test after it ends (the app swallows failed requests, so a thrown error alone would not).
 *
 *   const api = fakeApi();
 *   api.on(staffContracts.list, () => page([member]));
 *   ...
 *   expect(api.last(staffContracts.invite)?.body).toMatchObject({ email: ... });
 */

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : never;
type Sent<T> = T extends z.ZodType ? z.input<T> : undefined;
type SuccessStatus<C extends RouteContract> = keyof C['responses'] & (200 | 201 | 202 | 204);
/** What a handler may answer with a success: the contract's response body (204: its `null`). */
export type Answer<C extends RouteContract> = Input<C['responses'][SuccessStatus<C>]>;

/** One request the fake received for a contract: its parameters and query parsed by the contract's schemas. */
export interface Call<C extends RouteContract> {
  params: Parsed<C['params']>;
  query: Parsed<C['querystring']>;
  /** The body as sent (after the contract's schema accepted it), so that a test sees any field too many. */
  body: Sent<C['body']>;
  /** The body as the contract's schema parsed it (what the server's handler would get). */
  data: Parsed<C['body']>;
  /** The multipart form of an upload. */
  form?: FormData;
  url: URL;
  /** The request's headers, names in lower case (e.g. the CSRF header of a change). */
  headers: Record<string, string>;
  /** Whether the request sends cookies (`credentials`), as the page asked. */
  credentials?: RequestCredentials;
  /** The request's abort signal, for an answer that streams (server-sent events) until the page lets go. */
  signal?: AbortSignal;
}

/** An answer with a status other than the contract's success: an error body or another documented response. */
export class Reply {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    this.status = status;
    this.body = body;
  }
}

/** The server's error answer: its status and the stable code (design/api.md). */
export function apiError(
  status: number,
  code: string,
  message = code,
  details?: Record<string, unknown>,
): Reply {
  return new Reply(status, { error: { code, message, ...(details ? { details } : {}) } });
}

/** A documented answer with another status than the success one (e.g. a 202), checked against its schema. */
export function reply<C extends RouteContract, S extends keyof C['responses'] & number>(
  _contract: C,
  status: S,
  body: Input<C['responses'][S]>,
): Reply {
  return new Reply(status, body);
}

type HandlerResult<C extends RouteContract> = Answer<C> | Reply | Response;
export type Handler<C extends RouteContract> = (
  call: Call<C>,
) => HandlerResult<C> | Promise<HandlerResult<C>>;

function isContract(value: unknown): value is RouteContract {
  return (
    typeof value === 'object' &&
    value !== null &&
    'method' in value &&
    'path' in value &&
    'responses' in value
  );
}

/** Every contract of the API, from the shared package's `*Contracts` groups. */
const CONTRACTS: RouteContract[] = Object.entries(shared)
  .filter(([name, group]) => name.endsWith('Contracts') && typeof group === 'object' && group !== null)
  .flatMap(([, group]) => Object.values(group as Record<string, unknown>).filter(isContract));

const pattern = (path: string) =>
  new RegExp(
    `^/api/v1${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z]+)/g, '(?<$1>[^/]+)')}$`,
  );
const ROUTES = CONTRACTS.map((contract) => ({ contract, regex: pattern(contract.path) }));

/** The contract a request is for; a literal segment wins over a `:param` one (`/roles/new` before `/roles/:id`). */
export function routeOf(method: string, pathname: string) {
  const matches = ROUTES.filter((r) => r.contract.method === method && r.regex.test(pathname));
  matches.sort(
    (a, b) =>
      (b.contract.path.match(/\/[^:/][^/]*/g)?.length ?? 0) -
      (a.contract.path.match(/\/[^:/][^/]*/g)?.length ?? 0),
  );
  const route = matches[0];
  if (!route) return undefined;
  const params = Object.fromEntries(
    Object.entries(route.regex.exec(pathname)?.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]),
  );
  return { contract: route.contract, params };
}

/**
 * The app's own requests that a test need not answer (the session check, and what the shell around every page asks:
 * plan status, guided tour, company logo): unanswered, they stay pending, as if the server had not answered yet.
 */
const BACKGROUND = new Set<RouteContract>([
  shared.authContracts.me,
  shared.billingContracts.status,
  shared.tourContracts.get,
  shared.companyBrandingContracts.get,
]);

const zodIssues = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');

const live = new Set<FakeApi>();
afterEach(() => {
  const fakes = [...live];
  live.clear();
  const problems = fakes.flatMap((fake) => fake.problems);
  if (problems.length > 0)
    throw new Error(`The fake API was used against its contracts:\n- ${problems.join('\n- ')}`);
});

export class FakeApi {
  readonly problems: string[] = [];
  /** Every request, in order, as method and URL (path and query). */
  readonly requests: Array<{ method: string; url: string; contract?: RouteContract }> = [];
  private readonly handlers = new Map<RouteContract, Handler<RouteContract>>();
  private readonly received = new Map<RouteContract, Array<Call<RouteContract>>>();

  /** Answers a contract's requests with `handler` (replacing an earlier one). */
  on<C extends RouteContract>(contract: C, handler: NoInfer<Handler<C>>): this {
    this.handlers.set(contract, handler as unknown as Handler<RouteContract>);
    return this;
  }

  /** The requests received for a contract, oldest first, parsed by its schemas. */
  calls<C extends RouteContract>(contract: C): Array<Call<C>> {
    return (this.received.get(contract) ?? []) as unknown as Array<Call<C>>;
  }

  /** The latest request for a contract. */
  last<C extends RouteContract>(contract: C): Call<C> | undefined {
    return this.calls(contract).at(-1);
  }

  readonly fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), 'http://localhost');
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const signal = init.signal ?? request?.signal;
    const route = routeOf(method, url.pathname);
    this.requests.push({ method, url: `${url.pathname}${url.search}`, contract: route?.contract });
    const fail = (problem: string) => {
      this.problems.push(`${method} ${url.pathname}${url.search}: ${problem}`);
      return Response.json({ error: { code: 'FAKE_API', message: problem } }, { status: 500 });
    };
    if (!route) return fail('no contract has this method and path');
    const { contract } = route;

    const params = contract.params ? contract.params.safeParse(route.params) : undefined;
    if (params && !params.success)
      return fail(`path parameters the contract refuses (${zodIssues(params.error)})`);
    const query = contract.querystring?.safeParse(Object.fromEntries(url.searchParams));
    if (query && !query.success) return fail(`a query the contract refuses (${zodIssues(query.error)})`);
    const rawBody = init.body ?? (request && method !== 'GET' ? await request.text() : undefined);
    const form = rawBody instanceof FormData ? rawBody : undefined;
    let body: unknown;
    let data: unknown;
    if (typeof rawBody === 'string' && rawBody !== '') {
      body = JSON.parse(rawBody);
      const parsed = contract.body?.safeParse(body);
      if (!parsed) return fail('a body to a contract that takes none');
      if (!parsed.success) return fail(`a body the contract refuses (${zodIssues(parsed.error)})`);
      data = parsed.data;
    } else if (contract.body && !form) return fail('no body, but the contract takes one');

    const call: Call<RouteContract> = {
      params: params?.data,
      query: query?.data,
      body,
      data,
      form,
      url,
      headers: Object.fromEntries(
        [...new Headers(init.headers ?? request?.headers)].map(([name, value]) => [
          name.toLowerCase(),
          value,
        ]),
      ),
      ...((init.credentials ?? request?.credentials)
        ? { credentials: init.credentials ?? request?.credentials }
        : {}),
      ...(signal ? { signal } : {}),
    };
    this.received.set(contract, [...(this.received.get(contract) ?? []), call]);

    const handler = this.handlers.get(contract);
    if (!handler) {
      if (BACKGROUND.has(contract)) return new Promise<Response>(() => {});
      return fail(`no handler for ${contract.operationId}: answer it with api.on(…)`);
    }
    if (signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    let result: HandlerResult<RouteContract>;
    try {
      result = await handler(call);
    } catch (error) {
      return fail(`the handler threw: ${(error as Error).message}`);
    }
    if (result instanceof Response) {
      // A stream or a file goes as it is; a JSON answer is checked like any other.
      if (!result.headers.get('content-type')?.includes('application/json')) return result;
      const schema =
        contract.responses[result.status] ?? (result.status >= 400 ? shared.errorBodySchema : undefined);
      const checked =
        schema && 'safeParse' in schema ? schema.safeParse(await result.clone().json()) : undefined;
      if (!checked)
        return fail(`answered ${result.status}, which ${contract.operationId} does not document as JSON`);
      if (!checked.success)
        return fail(`an answer ${contract.operationId} does not allow (${zodIssues(checked.error)})`);
      return result;
    }
    const status =
      result instanceof Reply
        ? result.status
        : (Object.keys(contract.responses)
            .map(Number)
            .find((s) => s >= 200 && s < 300) ?? 200);
    const payload = result instanceof Reply ? result.body : result;
    if (status === 204) return new Response(null, { status });
    const schema = contract.responses[status] ?? (status >= 400 ? shared.errorBodySchema : undefined);
    if (!schema || !('safeParse' in schema))
      return fail(`answered ${status}, which ${contract.operationId} does not document as JSON`);
    const checked = schema.safeParse(payload);
    if (!checked.success)
      return fail(`an answer ${contract.operationId} does not allow (${zodIssues(checked.error)})`);
    return Response.json(payload, { status });
  });
}

/** A fake API installed as `fetch` for this test; it checks itself after the test. */
export function fakeApi(): FakeApi {
  const api = new FakeApi();
  live.add(api);
  vi.stubGlobal('fetch', api.fetch);
  return api;
}

/** One page of a list answer. */
export const page = <T>(items: T[], pageSize = 10) => ({ items, total: items.length, page: 1, pageSize });
