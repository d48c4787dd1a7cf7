import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the parts of Meta's WhatsApp Cloud API (Graph API) the product calls, on 127.0.0.1, under
 * the version path the product is configured with: the phone number (`GET /{phone-number-id}`; like Meta's, only the
 * numbers of the business account the token belongs to, `addNumber`, others answer error 100), sending a text, a read
 * receipt with typing indicator (`POST /{phone-number-id}/messages`), a media item's URL (`GET /{media-id}`) and the
 * download of that URL, which like Meta's needs the same bearer token. Every call needs the access token; Meta's
 * error shape (`{ error: { code, message } }`), and `failNext` makes the next sends fail with a code (131047, 130429,
 * 131056). Deliveries go to the product's webhook signed like Meta's: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the
 * raw body with the app secret>`.
 */

type Obj = Record<string, unknown>;

export interface SentText {
  phoneNumberId: string;
  to: string;
  body: string;
  /** The message it quotes (the question), if any. */
  replyTo: string | null;
  id: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | undefined;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const wamid = () => `wamid.${randomBytes(12).toString('hex')}`;

export class FakeWhatsApp {
  readonly version = 'v21.0';
  readonly accessToken = `EAAG${randomBytes(16).toString('hex')}`;
  readonly appSecret = randomBytes(16).toString('hex');
  readonly calls: RecordedCall[] = [];
  readonly sent: SentText[] = [];
  /** Incoming message ids marked read (with the typing indicator). */
  readonly read: string[] = [];
  private readonly failures: number[] = [];
  private readonly numbers = new Map<string, string>();
  private readonly media = new Map<string, { bytes: Buffer; mimeType: string }>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error) => this.error(res, 500, 1, String(error)));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The configuration that points the product at this double. */
  env(): Record<string, string> {
    return { WHATSAPP_GRAPH_URL: this.url, WHATSAPP_GRAPH_VERSION: this.version };
  }

  /** A phone number of the token's business account (shown as `display`); answers its phone-number id. */
  addNumber(
    id = String(100_000_000_000 + Math.floor(Math.random() * 9e11)),
    display = '+49 30 1234567',
  ): string {
    this.numbers.set(id, display);
    return id;
  }

  /** The next `count` sends fail with Meta's error `code`. */
  failNext(code: number, count = 1): void {
    for (let i = 0; i < count; i++) this.failures.push(code);
  }

  /** A media item (a voice note) the product may look up and download; answers its id. */
  addMedia(bytes: Buffer, mimeType = 'audio/ogg; codecs=opus'): string {
    const id = String(1_000_000_000 + this.media.size);
    this.media.set(id, { bytes, mimeType });
    return id;
  }

  /** The texts sent to one number, in order. */
  sentTo(to: string): string[] {
    return this.sent.filter((s) => s.to === to).map((s) => s.body);
  }

  private error(res: ServerResponse, status: number, code: number, message: string) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'OAuthException', code, fbtrace_id: 'fake' } }));
  }

  private json(res: ServerResponse, body: unknown) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.calls.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headers.authorization,
    });
    if (req.headers.authorization !== `Bearer ${this.accessToken}`) {
      return this.error(res, 401, 190, 'Invalid OAuth access token.');
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj) : {};
    const download = url.pathname.match(/^\/media\/(\d+)$/);
    if (download && req.method === 'GET') {
      const item = this.media.get(download[1]!);
      if (!item) return this.error(res, 404, 100, 'Unknown media.');
      res.writeHead(200, { 'content-type': item.mimeType });
      res.end(item.bytes);
      return;
    }
    const [, version, id, sub] = url.pathname.split('/');
    if (version !== this.version || !id) return this.error(res, 400, 2500, 'Unknown path.');
    if (!this.media.has(id) && !this.numbers.has(id)) {
      return this.error(
        res,
        400,
        100,
        `Unsupported ${req.method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      );
    }
    if (req.method === 'POST' && sub === 'messages') return this.message(res, id, body);
    if (req.method === 'GET' && !sub && this.media.has(id)) {
      const item = this.media.get(id)!;
      return this.json(res, {
        id,
        url: `${this.url}/media/${id}`,
        mime_type: item.mimeType,
        file_size: item.bytes.length,
        messaging_product: 'whatsapp',
      });
    }
    if (req.method === 'GET' && !sub) {
      return this.json(res, { id, display_phone_number: this.numbers.get(id), verified_name: 'Firma Test' });
    }
    return this.error(res, 400, 100, 'Unsupported request.');
  }

  private message(res: ServerResponse, phoneNumberId: string, body: Obj) {
    if (body.messaging_product !== 'whatsapp') return this.error(res, 400, 100, 'messaging_product missing.');
    if (body.status === 'read') {
      this.read.push(String(body.message_id));
      return this.json(res, { success: true });
    }
    const failure = this.failures.shift();
    if (failure !== undefined) {
      const status = failure === 130429 || failure === 131056 ? 429 : 400;
      return this.error(res, status, failure, `Fake failure ${failure}.`);
    }
    const text = (body.text as { body?: string } | undefined)?.body;
    if (body.type !== 'text' || typeof text !== 'string')
      return this.error(res, 400, 100, 'Only text is sent.');
    if (text.length > 4096) return this.error(res, 400, 100, 'Text longer than 4096 characters.');
    const id = wamid();
    const context = body.context as { message_id?: string } | undefined;
    this.sent.push({
      phoneNumberId,
      to: String(body.to),
      body: text,
      replyTo: context?.message_id ?? null,
      id,
    });
    return this.json(res, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id }],
    });
  }

  /** The `X-Hub-Signature-256` Meta would send for this body with this app secret. */
  signature(raw: string, secret = this.appSecret): string {
    return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  }

  /** Posts a delivery to the webhook, signed (or with the given signature header, or none). */
  async deliver(webhookUrl: string, delivery: unknown, signature?: string | null): Promise<Response> {
    const raw = JSON.stringify(delivery);
    const header = signature === undefined ? this.signature(raw) : signature;
    return fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(header ? { 'x-hub-signature-256': header } : {}) },
      body: raw,
    });
  }
}

/** An incoming text message as Meta delivers it. */
export function textMessage(
  from: string,
  text: string,
  options: { id?: string; timestamp?: number } = {},
): Obj {
  return {
    from,
    id: options.id ?? wamid(),
    timestamp: String(options.timestamp ?? nowSeconds()),
    type: 'text',
    text: { body: text },
  };
}

/** An incoming voice note (recorded in WhatsApp, `voice: true`). */
export function voiceMessage(from: string, mediaId: string): Obj {
  return {
    from,
    id: wamid(),
    timestamp: String(nowSeconds()),
    type: 'audio',
    audio: { id: mediaId, mime_type: 'audio/ogg; codecs=opus', voice: true },
  };
}

/** A status update of a message the business sent. */
export function statusUpdate(
  id: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  code?: number,
): Obj {
  return {
    id,
    status,
    timestamp: String(nowSeconds()),
    recipient_id: '491700000000',
    ...(code ? { errors: [{ code, title: 'failed' }] } : {}),
  };
}

/** One delivery: the business account's entry with one change for the number, holding messages and statuses. */
export function delivery(
  phoneNumberId: string,
  content: { messages?: Obj[]; statuses?: Obj[]; names?: Record<string, string> },
): Obj {
  const senders = [...new Set((content.messages ?? []).map((m) => String(m.from)))];
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '493012345678', phone_number_id: phoneNumberId },
              ...(senders.length
                ? {
                    contacts: senders.map((wa_id) => ({
                      wa_id,
                      profile: { name: content.names?.[wa_id] ?? 'Kunde' },
                    })),
                  }
                : {}),
              ...(content.messages ? { messages: content.messages } : {}),
              ...(content.statuses ? { statuses: content.statuses } : {}),
            },
          },
        ],
      },
    ],
  };
}
