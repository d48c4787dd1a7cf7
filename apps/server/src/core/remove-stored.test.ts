import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../modules/files/local-file-storage.ts';
import { removeStored } from './remove-stored.ts';

describe('removing stored objects', () => {
  const root = mkdtempSync(join(tmpdir(), 'ww-remove-stored-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('removes every object it can and logs each one it cannot, without failing', async () => {
    mkdirSync(join(root, 'company'), { recursive: true });
    writeFileSync(join(root, 'company/first'), 'a');
    writeFileSync(join(root, 'company/last'), 'b');
    // A folder where an object should be: the store's `rm` refuses it, as it would a file it may not delete.
    mkdirSync(join(root, 'company/stuck'));
    const lines: Array<{ key?: string; msg?: string; err?: unknown }> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });

    await removeStored(
      { storage: new LocalFileStorage(root), log },
      ['company/first', null, 'company/stuck', undefined, 'company/last'],
      'test object',
    );

    expect(existsSync(join(root, 'company/first'))).toBe(false);
    expect(existsSync(join(root, 'company/last'))).toBe(false);
    expect(existsSync(join(root, 'company/stuck'))).toBe(true);
    expect(lines.map(({ key, msg }) => ({ key, msg }))).toEqual([
      { key: 'company/stuck', msg: 'test object not removed' },
    ]);
    expect(lines[0]!.err).toBeDefined();
  });
});
