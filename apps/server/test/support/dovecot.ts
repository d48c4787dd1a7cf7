import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort, listening } from './processes.ts';

export const DOVECOT = '/usr/sbin/dovecot';

export interface MailboxUser {
  user: string;
  pass: string;
}

/** The uid and gid mail is kept under: ours, or nobody's when the tests run as root (Dovecot refuses uid 0). */
function mailOwner() {
  const me = userInfo();
  return me.uid === 0
    ? { uid: 65534, gid: 65534, login: 'nobody' }
    : { uid: me.uid, gid: me.gid, login: me.username };
}

function configOf(dir: string, port: number): string {
  const owner = mailOwner();
  const me = userInfo();
  return `base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = ww-test-${port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = ${dir}/dovecot.log
default_login_user = ${owner.login}
default_internal_user = ${me.username}
first_valid_uid = 1
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

/**
 * Debian's Dovecot as a real IMAP server for the e-mail assistant's tests: its own configuration (passwd-file
 * users, maildir in a temporary folder, a free loopback port), run in the foreground by the test, no system service.
 */
export class TestDovecot {
  private readonly dir: string;
  private child: ChildProcess;
  readonly port: number;
  private constructor(dir: string, child: ChildProcess, port: number) {
    this.dir = dir;
    this.child = child;
    this.port = port;
  }

  private static run(dir: string): ChildProcess {
    return spawn(DOVECOT, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: 'ignore' });
  }

  static async start(users: MailboxUser[]): Promise<TestDovecot> {
    const dir = mkdtempSync(join(tmpdir(), 'ww-dovecot-'));
    chmodSync(dir, 0o755);
    const owner = mailOwner();
    for (const sub of ['run', 'state', 'mail']) mkdirSync(join(dir, sub));
    chownSync(join(dir, 'mail'), owner.uid, owner.gid);
    writeFileSync(join(dir, 'passwd'), users.map((u) => `${u.user}:{PLAIN}${u.pass}\n`).join(''));
    const port = await freePort();
    writeFileSync(join(dir, 'dovecot.conf'), configOf(dir, port));
    const server = new TestDovecot(dir, TestDovecot.run(dir), port);
    await listening(port, Date.now() + 15_000, 'Dovecot');
    return server;
  }

  /** A signed-in IMAP client of one of the users (for putting mail in, or looking at it). */
  async client(user: MailboxUser): Promise<ImapFlow> {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: this.port,
      secure: false,
      auth: { user: user.user, pass: user.pass },
      logger: false,
    });
    await client.connect();
    return client;
  }

  /**
   * Delivers a mail into the user's INBOX (as the mail server would, unread); with `receivedAt`, as one the server
   * received then (its INTERNALDATE), like an old mail that was already there.
   */
  async deliver(user: MailboxUser, raw: string, receivedAt?: Date): Promise<void> {
    const client = await this.client(user);
    try {
      await client.append('INBOX', raw.replace(/\r?\n/g, '\r\n'), [], receivedAt);
    } finally {
      await client.logout();
    }
  }

  /** An outage: the server stops (every connection is cut) until `up`. */
  async down(): Promise<void> {
    await this.halt();
  }

  async up(): Promise<void> {
    this.child = TestDovecot.run(this.dir);
    await listening(this.port, Date.now() + 15_000, 'Dovecot');
  }

  /**
   * Replaces the user's mailbox by an empty one with a new UIDVALIDITY, as a server migration or a restored backup
   * does (Dovecot cannot rename INBOX): the server is stopped, the maildir removed, the server started again.
   */
  async replaceMailbox(user: MailboxUser): Promise<void> {
    await this.halt();
    // A Dovecot process still ending may write its last index file while the folder goes (ENOTEMPTY, run 17):
    // removing retries, as Node does for that error.
    rmSync(join(this.dir, 'mail', user.user), {
      recursive: true,
      force: true,
      maxRetries: 5,
      retryDelay: 100,
    });
    await this.up();
  }

  private halt(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }

  async stop(): Promise<void> {
    await this.halt();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A plain text mail with the given headers. */
export function rawMail(headers: Record<string, string>, body: string): string {
  const lines = Object.entries({
    Date: new Date().toUTCString(),
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Transfer-Encoding': '8bit',
    ...headers,
  }).map(([k, v]) => `${k}: ${v}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}\r\n`;
}
