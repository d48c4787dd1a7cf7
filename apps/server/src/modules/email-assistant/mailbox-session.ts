import type { ImapFlow } from 'imapflow';
import type { AppContext } from '../../app-context.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { failureOf, imapClient } from './mail-connection.ts';
import type { HeldMailbox } from './mailbox-cursor.ts';
import { noteChecked, releaseMailbox } from './mailbox-lease.ts';
import { readNewMail } from './mailbox-reader.ts';

/** A check of the connection (INBOX selected again) that takes longer than this means it is dead. */
const CHECK_TIMEOUT_MS = 20_000;
/** IDLE is broken for a check at least this often, below the client's socket timeout (see `imapClient`). */
const CHECK_MAX_MS = 4 * 60_000;
const LOGOUT_TIMEOUT_MS = 5_000;

/** 'idle': held, new mail read the moment the server announces it. 'poll': read once, in turn with other mailboxes. */
export type SessionMode = 'idle' | 'poll';

/** Waits `ms`, or less when `signal` aborts (its listener removed either way: a session waits thousands of times). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Settles like `promise`, or after `ms` closes the connection and fails as a timeout. */
async function within<T>(client: ImapFlow, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      client.close();
      reject(Object.assign(new Error('the IMAP server did not answer'), { code: 'ETIMEOUT' }));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One held mailbox's IMAP connection, run by the worker holding its lease (`mailbox-watchers.ts`): signs in, opens
 * INBOX read-only and reads the new mail; in 'idle' mode it then waits in IDLE, woken by the server's EXISTS, and
 * every MAIL_ASSISTANT_POLL_SECONDS (IDLE can die without a word) selects INBOX again within 20 s, else the
 * connection counts as dead. imapflow does not reconnect after a close: a lost connection ends the session with its
 * failure stored and a short retry time, and any worker takes the mailbox again then. `ended` settles once the lease
 * has been given back; `stop` ends it early (a stopping worker, a lost lease, a changed setting).
 */
export class MailboxSession {
  readonly ended: Promise<void>;
  private readonly stopper = new AbortController();
  private client: ImapFlow | null = null;

  private readonly ctx: AppContext;
  readonly held: HeldMailbox;
  readonly mode: SessionMode;
  constructor(ctx: AppContext, held: HeldMailbox, mode: SessionMode) {
    this.ctx = ctx;
    this.held = held;
    this.mode = mode;
    this.ended = this.run();
  }

  get id(): string {
    return this.held.setting.id;
  }

  /** When the setting was last saved, as this session read it. */
  get savedAt(): Date {
    return this.held.setting.updatedAt;
  }

  /** Ends the session: IDLE is left and the client signs out, or after a few seconds the connection is closed. */
  async stop(): Promise<void> {
    this.stopper.abort();
    const timer = setTimeout(() => this.client?.close(), LOGOUT_TIMEOUT_MS);
    await this.ended;
    clearTimeout(timer);
  }

  private async run(): Promise<void> {
    const { ctx, held } = this;
    const signal = this.stopper.signal;
    let outcome: Parameters<typeof releaseMailbox>[3];
    try {
      await this.watch(signal);
      outcome = { read: !signal.aborted };
    } catch (error) {
      if (signal.aborted) outcome = { read: false };
      else {
        const failure = failureOf(error);
        ctx.log.info({ err: error, settingId: held.setting.id, failure }, 'mailbox not read');
        outcome = { failure, failures: held.setting.failures + 1 };
      }
    }
    await releaseMailbox(ctx, held.holder, held.setting.id, outcome).catch((error: unknown) =>
      ctx.log.warn({ err: error, settingId: held.setting.id }, 'could not give a mailbox back'),
    );
  }

  private async watch(signal: AbortSignal): Promise<void> {
    const { ctx, held } = this;
    const password = new SecretBox(ctx.config.secrets.encryptionKey).open(held.setting.passwordSealed);
    const client = await imapClient(ctx.outbound.policy, { ...held.setting, password });
    if (signal.aborted) return;
    this.client = client;
    client.on('error', (error: unknown) =>
      ctx.log.info({ err: error, settingId: held.setting.id }, 'mailbox connection error'),
    );
    let wake: () => void = () => {};
    client.on('exists', () => wake());
    const closed = new Promise<never>((_, reject) =>
      client.on('close', () =>
        reject(Object.assign(new Error('the IMAP server closed the connection'), { code: 'NoConnection' })),
      ),
    );
    closed.catch(() => {});
    try {
      await client.connect();
      await client.mailboxOpen('INBOX', { readOnly: true });
      await noteChecked(ctx, held.holder, held.setting.id, null);
      held.setting.failures = 0;
      const every = Math.min(ctx.config.MAIL_ASSISTANT_POLL_SECONDS * 1000, CHECK_MAX_MS);
      for (;;) {
        await readNewMail(ctx, client, held, signal);
        if (this.mode === 'poll' || signal.aborted) return;
        let announced = false;
        const woken = new Promise<void>((resolve) => {
          wake = () => {
            announced = true;
            resolve();
          };
        });
        void client.idle().catch(() => {});
        await Promise.race([woken, sleep(every, signal), closed]);
        wake = () => {};
        if (signal.aborted) return;
        if (!announced) {
          // The safety net: selected again, so that a dead connection shows and a mailbox replaced under us (a new
          // UIDVALIDITY) is read anew.
          await within(client, client.mailboxOpen('INBOX', { readOnly: true }), CHECK_TIMEOUT_MS);
          await noteChecked(ctx, held.holder, held.setting.id, null);
        }
      }
    } finally {
      await within(client, client.logout(), LOGOUT_TIMEOUT_MS).catch(() => client.close());
    }
  }
}
