import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
  emailId: string | null;
  /** The first http(s) link of the text part. */
  link: string | null;
  /** The From and Reply-To headers as written ("Name" <address>). */
  from: string;
  replyTo: string;
  attachments: { fileName: string; contentType: string; content: Buffer }[];
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives; `failNext` rejects the next messages. */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer;
  private failures = 0;
  port = 0;

  /**
   * With `auth`, the server asks for a user and password (AUTH PLAIN or LOGIN over plain text): that one, or any of
   * those.
   */
  constructor(
    options: { auth?: { user: string; pass: string } | Array<{ user: string; pass: string }> } = {},
  ) {
    const users = options.auth ? [options.auth].flat() : [];
    this.server = new SMTPServer({
      authOptional: users.length === 0,
      disabledCommands: users.length > 0 ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      allowInsecureAuth: true,
      onAuth: (login, _session, callback) =>
        users.some((u) => u.user === login.username && u.pass === login.password)
          ? callback(null, { user: login.username })
          : callback(new Error('535 authentication failed (test)')),
      logger: false,
      onData: (stream: SMTPServerDataStream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.failures > 0) {
            this.failures--;
            callback(new Error('451 temporary failure (test)'));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          parseMail(
            raw,
            session.envelope.rcptTo.map((r) => r.address),
          ).then(
            (mail) => {
              this.mails.push(mail);
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return `smtp://127.0.0.1:${this.port}`;
  }

  failNext(count: number): void {
    this.failures = count;
  }

  /**
   * The first mail that matches, waiting for it up to `timeoutMs`: a mail goes out through the outbox's job, which on
   * CI's two cores beside the other passes (load 12 to 16) took more than 20 s.
   */
  async waitFor(match: (m: ReceivedMail) => boolean, timeoutMs = 60_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.mails.find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `no matching mail within ${timeoutMs} ms; got ${this.mails.map((m) => m.subject).join(' | ')}`,
    );
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function parseMail(raw: string, to: string[]): Promise<ReceivedMail> {
  const parsed = await simpleParser(raw);
  const text = parsed.text ?? '';
  const header = parsed.headers.get('x-werkwissen-email-id');
  return {
    to,
    raw,
    subject: parsed.subject ?? '',
    text,
    html: typeof parsed.html === 'string' ? parsed.html : '',
    emailId: typeof header === 'string' ? header : null,
    link: /https?:\/\/[^\s"<>]+/.exec(text)?.[0] ?? null,
    from: parsed.from?.text ?? '',
    replyTo: parsed.replyTo?.text ?? '',
    attachments: parsed.attachments.map((a) => ({
      fileName: a.filename ?? '',
      contentType: a.contentType,
      content: a.content,
    })),
  };
}
