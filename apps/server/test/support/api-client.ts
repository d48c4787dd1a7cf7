import { solvedAltcha } from './altcha.ts';

/**
 * A small HTTP client that behaves like the browser: it keeps cookies and echoes the CSRF cookie in the
 * x-csrf-token header on mutating requests (unless told not to), and, like the pages' bot-check widget, solves a
 * fresh ALTCHA challenge for each public form it sends without a `botCheck` of its own (unless told not to).
 */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

let addresses = 0;

/** The public forms whose page carries the bot check. */
const BOT_CHECKED_FORMS =
  /^\/(auth\/(register|forgot-password|reset-password|set-password)|public\/feedback)$/;

export class ApiClient {
  readonly cookies = new Map<string, string>();
  bearer: string | null = null;
  sendCsrf = true;
  /** Whether public forms get a solved bot check, as the pages send them. */
  solveBotChecks = true;
  language: string | null = null;
  /** Headers sent with every request (e.g. X-Forwarded-For, to come from another address behind a proxy). */
  readonly headers: Record<string, string> = {};

  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /**
   * Sends every request as if from `address` (X-Forwarded-For; only a server with TRUST_PROXY believes it), by default
   * an address of its own from the documentation range 198.18.0.0/15.
   */
  from(address = `198.18.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`): this {
    this.headers['x-forwarded-for'] = address;
    return this;
  }

  /** A multipart upload like the browser's: one `files` part per file. */
  async upload<T = any>(
    path: string,
    files: Array<{ name: string; content: Buffer | string; type?: string }>,
  ): Promise<ApiResponse<T>> {
    const form = new FormData();
    for (const f of files) {
      const bytes = typeof f.content === 'string' ? Buffer.from(f.content) : f.content;
      form.append(
        'files',
        new Blob([new Uint8Array(bytes)], { type: f.type ?? 'application/octet-stream' }),
        f.name,
      );
    }
    return this.request<T>('POST', path, undefined, { form });
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    init: { headers?: Record<string, string>; rawBody?: string; form?: FormData; redirect?: 'manual' } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.headers, ...init.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('ww_csrf');
    if (this.sendCsrf && csrf && !['GET', 'HEAD'].includes(method) && !headers['x-csrf-token']) {
      headers['x-csrf-token'] = csrf;
    }
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    if (this.language) headers['accept-language'] = this.language;
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers,
      body: init.form ?? init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      ...(init.redirect ? { redirect: init.redirect } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair, ...attrs] = cookie.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  async post<T = any>(path: string, body?: unknown) {
    const form = body ?? {};
    if (
      this.solveBotChecks &&
      BOT_CHECKED_FORMS.test(path) &&
      typeof form === 'object' &&
      !('botCheck' in form)
    ) {
      return this.request<T>('POST', path, { ...form, botCheck: await solvedAltcha(this) });
    }
    return this.request<T>('POST', path, form);
  }
  patch<T = any>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  put<T = any>(path: string, body: unknown) {
    return this.request<T>('PUT', path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }
}
