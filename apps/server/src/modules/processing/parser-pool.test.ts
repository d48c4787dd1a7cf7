import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../../../test/support/documents.ts';
import { DEFAULT_OCR_OPTIONS } from './extract/ocr.ts';
import { ParserPool, parserPoolSize } from './parser-pool.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-pool-'));
const pool = new ParserPool({ memoryMb: 64, timeoutMs: 60_000 }, 2);
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const write = (name: string, content: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const docx = { ocr: DEFAULT_OCR_OPTIONS };
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: { code?: string }) => error.code,
  );

describe('the parser pool', () => {
  it('reads documents side by side, and survives a child that crashes under one of them', async () => {
    const small = write('klein.docx', await makeDocx([{ text: 'Ein kurzer Absatz.' }]));
    // Unpacks to far more than the child's 64 MB: the child dies of it.
    const bomb = write(
      'bombe.docx',
      await makeDocx(Array.from({ length: 40 }, () => ({ text: 'Heizung '.repeat(100_000) }))),
    );
    const results = await Promise.all([
      outcome(pool.extract(bomb, 'docx', docx)),
      outcome(pool.extract(small, 'docx', docx)),
      outcome(pool.extract(small, 'docx', docx)),
    ]);
    expect(results).toEqual(['FILE_PARSE_LIMIT', 'read', 'read']);
    // Both processes take documents again: the crashed one is started anew.
    const again = await Promise.all([pool.extract(small, 'docx', docx), pool.extract(small, 'docx', docx)]);
    expect(again.map((r) => r.blocks)).toEqual([
      [{ kind: 'paragraph', text: 'Ein kurzer Absatz.' }],
      [{ kind: 'paragraph', text: 'Ein kurzer Absatz.' }],
    ]);
    expect(pool.pids).toHaveLength(2);
  }, 90_000);

  it('is sized by PARSER_PROCESSES, or to the machine with at least one process', () => {
    expect(parserPoolSize({ PARSER_PROCESSES: 3, PARSER_MEMORY_MB: 1024 })).toBe(3);
    expect(parserPoolSize({ PARSER_PROCESSES: 0, PARSER_MEMORY_MB: 1024 })).toBeGreaterThanOrEqual(1);
    // Memory caps the pool: no machine holds a process of 16 TB twice over.
    expect(parserPoolSize({ PARSER_PROCESSES: 0, PARSER_MEMORY_MB: 16 * 1024 * 1024 })).toBe(1);
  });
});
