import type { AppContext } from '../../app-context.ts';

/** Meta's error codes the channel acts on. */
export const GRAPH_ERRORS = {
  /** More than 24 hours since the user's last message: no free-form message may be sent. */
  reEngagement: 131047,
  /** The business number's throughput was exceeded: try again later. */
  rateLimit: 130429,
  /** Too many messages to the same user in a short time (pair rate limit): try again later. */
  pairRateLimit: 131056,
} as const;

/** Codes worth another attempt later (throughput and per-pair pacing). */
export const RETRYABLE_CODES = new Set<number>([GRAPH_ERRORS.rateLimit, GRAPH_ERRORS.pairRateLimit]);

/** A failed Graph API call: the HTTP status and Meta's error code (0 when the answer carried none). */
export class GraphError extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.name = 'GraphError';
  }

  /** A network failure, a server error or a rate limit: another attempt may succeed. */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || RETRYABLE_CODES.has(this.code);
  }
}

/** How long one Graph API call may take. */
const TIMEOUT_MS = 15_000;

/**
 * The calls the WhatsApp channel makes to Meta's Graph API (`WHATSAPP_GRAPH_URL`, version `WHATSAPP_GRAPH_VERSION`),
 * each with the company's access token as bearer.
 */
export class GraphClient {
  readonly #base: string;
  readonly #token: string;

  constructor(ctx: AppContext, accessToken: string) {
    this.#base = `${ctx.config.WHATSAPP_GRAPH_URL.replace(/\/+$/, '')}/${ctx.config.WHATSAPP_GRAPH_VERSION}`;
    this.#token = accessToken;
  }

  async #request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw new GraphError(0, 0, (error as Error).message);
    }
    if (!response.ok) {
      const answer = (await response.json().catch(() => ({}))) as {
        error?: { code?: number; message?: string };
      };
      throw new GraphError(
        response.status,
        Number(answer.error?.code ?? 0),
        answer.error?.message ?? `Graph API answered ${response.status}`,
      );
    }
    return response;
  }

  async #json<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return (await (await this.#request(method, `${this.#base}/${path}`, body)).json()) as T;
  }

  /** The phone number as Meta knows it (the connect dialog's test). */
  phoneNumber(phoneNumberId: string) {
    return this.#json<{ display_phone_number?: string; verified_name?: string }>(
      'GET',
      `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`,
    );
  }

  /** Sends a text message; answers Meta's id of the message (for its status updates). */
  async sendText(phoneNumberId: string, to: string, text: string, replyTo?: string): Promise<string> {
    const answer = await this.#json<{ messages?: Array<{ id: string }> }>(
      'POST',
      `${encodeURIComponent(phoneNumberId)}/messages`,
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'text',
        text: { body: text, preview_url: false },
        ...(replyTo ? { context: { message_id: replyTo } } : {}),
      },
    );
    const id = answer.messages?.[0]?.id;
    if (!id) throw new GraphError(200, 0, 'Graph API answered no message id');
    return id;
  }

  /** Marks an incoming message read and shows the typing indicator while the answer is written. */
  async markReadTyping(phoneNumberId: string, messageId: string): Promise<void> {
    await this.#json('POST', `${encodeURIComponent(phoneNumberId)}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: messageId,
      typing_indicator: { type: 'text' },
    });
  }

  /**
   * Downloads a media item (a voice note): its short-lived URL from `GET /{media-id}`, then the bytes with the same
   * bearer token at once.
   */
  async downloadMedia(
    mediaId: string,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; mimeType: string | null }> {
    const media = await this.#json<{ url?: string; mime_type?: string; file_size?: number }>(
      'GET',
      encodeURIComponent(mediaId),
    );
    if (!media.url) throw new GraphError(200, 0, 'Graph API answered no media URL');
    if (media.file_size && media.file_size > maxBytes) throw new GraphError(413, 0, 'media too large');
    const response = await this.#request('GET', media.url);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > maxBytes) throw new GraphError(413, 0, 'media too large');
    return { bytes, mimeType: media.mime_type ?? null };
  }
}
