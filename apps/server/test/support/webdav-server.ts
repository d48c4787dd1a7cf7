import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort, listening } from './processes.ts';

export const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface DavUser {
  user: string;
  pass: string;
}

function configOf(dir: string, port: number): string {
  const root = userInfo().uid === 0;
  const modules = [
    'mpm_event',
    'authn_core',
    'authn_file',
    'authz_core',
    'authz_user',
    'auth_basic',
    'dav',
    'dav_fs',
  ];
  return `ServerRoot ${dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/apache.pid
ErrorLog ${dir}/error.log
LogLevel warn
LogFormat "%m %U" requests
CustomLog ${dir}/access.log requests
${modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`).join('\n')}
${root ? 'User nobody\nGroup nogroup' : ''}
DavLockDB ${dir}/locks/DavLock
DocumentRoot ${dir}/dav
<Directory ${dir}/dav>
  Dav On
  AuthType Basic
  AuthName "Werkwissen test"
  AuthUserFile ${dir}/htpasswd
  Require valid-user
</Directory>
`;
}

const htpasswdLine = (u: DavUser) => `${u.user}:{SHA}${createHash('sha1').update(u.pass).digest('base64')}\n`;

/**
 * Debian's Apache with mod_dav as a real WebDAV server for the connectors' tests: its own configuration (Basic
 * authentication from a htpasswd file, the shared folder in a temporary directory, a free loopback port), run in the
 * foreground by the test, no system service. The test changes the shared folder's files directly (`root`).
 */
export class TestWebDav {
  private readonly dir: string;
  private readonly child: ChildProcess;
  readonly port: number;
  private constructor(dir: string, child: ChildProcess, port: number) {
    this.dir = dir;
    this.child = child;
    this.port = port;
  }

  static async start(users: DavUser[]): Promise<TestWebDav> {
    const dir = mkdtempSync(join(tmpdir(), 'ww-webdav-'));
    chmodSync(dir, 0o755);
    for (const sub of ['dav', 'locks']) mkdirSync(join(dir, sub), { mode: 0o777 });
    chmodSync(join(dir, 'locks'), 0o777);
    writeFileSync(join(dir, 'htpasswd'), users.map(htpasswdLine).join(''));
    chmodSync(join(dir, 'htpasswd'), 0o644);
    const port = await freePort();
    writeFileSync(join(dir, 'httpd.conf'), configOf(dir, port));
    const child = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], { stdio: 'ignore' });
    const server = new TestWebDav(dir, child, port);
    try {
      await listening(port, Date.now() + 15_000, 'Apache');
    } catch (error) {
      await server.stop();
      throw new Error(`${(error as Error).message}: ${server.errorLog()}`);
    }
    return server;
  }

  /** The WebDAV address of the shared folder. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** The shared folder on disk: what the server serves. */
  get root(): string {
    return join(this.dir, 'dav');
  }

  /** Gives a user a new password, as an app password is replaced on the server (Apache reads the file per request). */
  setPassword(user: DavUser): void {
    const file = join(this.dir, 'htpasswd');
    const others = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith(`${user.user}:`));
    writeFileSync(file, [...others.map((line) => `${line}\n`), htpasswdLine(user)].join(''));
  }

  /** How often a path was downloaded (GET) so far, as the server's request log says. */
  downloads(path: string): number {
    let log = '';
    try {
      log = readFileSync(join(this.dir, 'access.log'), 'utf8');
    } catch {}
    const wanted = `GET /${path.split('/').map(encodeURIComponent).join('/')}`;
    return log.split('\n').filter((line) => line === wanted || decodeURI(line) === `GET /${path}`).length;
  }

  errorLog(): string {
    try {
      return readFileSync(join(this.dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
