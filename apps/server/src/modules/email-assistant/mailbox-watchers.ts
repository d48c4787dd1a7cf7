import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app-context.ts';
import type { EmailSettingRow } from './email-settings.queries.ts';
import { heartbeat, leaveWatchers, renewLeases, shareOf, takeMailboxes } from './mailbox-lease.ts';
import { MailboxSession, type SessionMode } from './mailbox-session.ts';
import { requeueStrandedMail } from './stranded-mail.ts';

/** How often a worker renews its leases, takes its share and looks for mailboxes due for a poll. */
const SCAN_MS = 2_000;
/** Mailboxes beyond a worker's share that it reads at once, in turn. */
const POLLS_AT_ONCE = 2;
/** How often it looks for mails whose job went missing. */
const STRANDED_MS = 30_000;

/**
 * Every mailbox watched at once, by the worker processes together (one `MailboxWatchers` per worker process).
 * Each scan, a worker says it is alive (`mail_watchers`), renews the leases of the mailboxes it holds (a session
 * whose lease was lost, or whose setting was deleted or saved again, ends), and holds its share of all mailboxes in
 * IDLE: the mailboxes spread evenly over the live workers, none beyond its MAIL_ASSISTANT_IDLE_PER_WORKER (a worker
 * holding more than its share gives the rest up for the others to take). Mailboxes nobody holds (more than the
 * workers may hold together) are read in turn, the longest unread first, each every MAIL_ASSISTANT_POLL_SECONDS, by
 * workers that hold their share. A worker that died leaves its leases to run out (LEASE_SECONDS), and another takes
 * its mailboxes; a lease is taken by one conditional update, so two workers never read one mailbox. Not pg-boss
 * jobs: an IDLE connection is held, not run as a step; what it reads is stored and its answer queued as jobs.
 */
export class MailboxWatchers {
  /** This worker process, as `lease_holder` and in `mail_watchers`. */
  readonly id = `worker-${randomUUID()}`;
  private readonly sessions = new Map<string, MailboxSession>();
  private readonly ending = new Set<MailboxSession>();
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private stopped = false;
  private strandedAt = 0;

  private readonly ctx: AppContext;
  constructor(ctx: AppContext) {
    this.ctx = ctx;
  }

  start(): void {
    this.schedule(0);
  }

  /** The mailboxes this worker holds now, by mode (for tests and the benchmark). */
  held(): { idle: number; poll: number } {
    const live = [...this.sessions.values()].filter((s) => !this.ending.has(s));
    return {
      idle: live.filter((s) => s.mode === 'idle').length,
      poll: live.filter((s) => s.mode === 'poll').length,
    };
  }

  /** Stops scanning, ends every session (leases given back at once, for another worker to take) and leaves. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.scanning;
    await Promise.all([...this.sessions.values()].map((s) => s.stop()));
    await leaveWatchers(this.ctx, this.id).catch(() => {});
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.scanning = this.scan()
        .catch((error: unknown) => this.ctx.log.warn({ err: error }, 'mailbox scan failed'))
        .finally(() => {
          this.scanning = null;
          if (!this.stopped) this.schedule(SCAN_MS);
        });
    }, ms);
    this.timer.unref();
  }

  private async scan(): Promise<void> {
    const { ctx } = this;
    if (this.strandedAt === 0) await leaveWatchers(ctx, this.id);
    const capacity = ctx.config.MAIL_ASSISTANT_IDLE_PER_WORKER;
    const { mailboxes, capacities } = await heartbeat(ctx, this.id, capacity);
    const kept = await renewLeases(ctx, this.id, [...this.sessions.keys()]);
    for (const session of this.sessions.values()) {
      if (kept.get(session.id)?.getTime() !== session.savedAt.getTime()) this.end(session);
    }
    const idle = [...this.sessions.values()].filter((s) => s.mode === 'idle' && !this.ending.has(s));
    const share = shareOf(mailboxes, capacities, capacity);
    if (this.stopped) return;
    if (idle.length > share + 1) for (const session of idle.slice(share)) this.end(session);
    else if (idle.length < share)
      for (const setting of await takeMailboxes(ctx, this.id, share - idle.length))
        this.begin(setting, 'idle');
    const polling = [...this.sessions.values()].filter((s) => s.mode === 'poll').length;
    if (idle.length >= share && polling < POLLS_AT_ONCE && !this.stopped) {
      const due = await takeMailboxes(
        ctx,
        this.id,
        POLLS_AT_ONCE - polling,
        ctx.config.MAIL_ASSISTANT_POLL_SECONDS,
      );
      for (const setting of due) this.begin(setting, 'poll');
    }
    if (Date.now() - this.strandedAt > STRANDED_MS) {
      this.strandedAt = Date.now();
      const requeued = await requeueStrandedMail(ctx);
      if (requeued > 0) ctx.log.info({ requeued }, 'queued the answers of mails whose job went missing');
    }
  }

  private begin(setting: EmailSettingRow, mode: SessionMode): void {
    if (this.stopped) return;
    const session = new MailboxSession(this.ctx, { setting, holder: this.id }, mode);
    this.sessions.set(setting.id, session);
    void session.ended.then(() => {
      if (this.sessions.get(setting.id) === session) this.sessions.delete(setting.id);
      this.ending.delete(session);
    });
  }

  private end(session: MailboxSession): void {
    if (this.ending.has(session)) return;
    this.ending.add(session);
    void session.stop();
  }
}
