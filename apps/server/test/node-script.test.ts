import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `scripts/node.sh`, which gives a machine with an older node the Node 24 this repository runs on. The machine's node
 * and the fetched one are stand-ins printing their version: the script asks only their version and runs them.
 */
const script = new URL('../../../scripts/node.sh', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ww-node-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeNode(folder: string, version: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'node');
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`);
  chmodSync(path, 0o755);
  return folder;
}

const cpu = arch() === 'arm64' ? 'arm64' : 'x64';
const cache = join(dir, 'cache');
const fetchedBin = fakeNode(join(cache, `node-v24.21.0-${platform()}-${cpu}`, 'bin'), 'v24.21.0');
const oldMachine = fakeNode(join(dir, 'old'), 'v20.20.2');
const newMachine = fakeNode(join(dir, 'new'), 'v24.3.0');

function run(path: string, ...args: string[]): string {
  return execFileSync('sh', [script, ...args], {
    env: { PATH: `${path}:/usr/bin:/bin`, WERKWISSEN_CACHE: cache, HOME: dir },
    encoding: 'utf8',
  });
}

describe('scripts/node.sh', () => {
  it('runs a command on the fetched Node 24 where the machine’s node is older', () => {
    expect(run(oldMachine, 'sh', '-c', 'node -v; echo "$npm_config_nodedir"').split('\n')).toEqual([
      'v24.21.0',
      join(cache, `node-v24.21.0-${platform()}-${cpu}`),
      '',
    ]);
  });

  it('runs a command on the machine’s own node when it is 24 or newer', () => {
    expect(run(newMachine, 'sh', '-c', 'node -v')).toBe('v24.3.0\n');
  });

  it('sees the machine’s older node behind the fetched one that a command or `env` put first', () => {
    // As in `npm install` run through the script: its postinstall must still link node_modules/.bin/node.
    expect(run(`${fetchedBin}:${oldMachine}`, 'env')).toContain(`export PATH='${fetchedBin}'`);
    expect(run(`${fetchedBin}:${newMachine}`, 'env')).toBe('');
  });
});
