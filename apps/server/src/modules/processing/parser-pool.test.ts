import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../../../test/support/documents.ts';
import { TINY_WEBP } from '../../../test/support/scans.ts';
import { startTestServer } from '../../../test/support/test-server.ts';
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

  it('fails only the document sent to a process that has just died, and reads the next one', async () => {
    const one = new ParserPool({ memoryMb: 1024, timeoutMs: 60_000 }, 1);
    try {
      const small = write('kurz.docx', await makeDocx([{ text: 'Ein kurzer Absatz.' }]));
      expect(await outcome(one.extract(small, 'docx', docx))).toBe('read');
      const [pid] = one.pids;
      process.kill(pid!, 'SIGKILL');
      // Dead, but not yet reported to this process (that takes a turn of its event loop, which this wait does not
      // give): a message to it fails to write.
      const deadline = Date.now() + 5_000;
      while (!readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ') && Date.now() < deadline);
      expect(await outcome(one.extract(small, 'docx', docx))).toBe('FILE_PARSE_LIMIT');
      expect(await outcome(one.extract(small, 'docx', docx))).toBe('read');
    } finally {
      await one.close();
    }
  }, 60_000);

  it('starts its processes ahead of the first document when warmed, and reads with them', async () => {
    const warmed = new ParserPool({ memoryMb: 1024, timeoutMs: 60_000 }, 2);
    try {
      await warmed.warm();
      const started = warmed.pids;
      expect(started).toHaveLength(2);
      const pdf = write('seite.pdf', await makePdf([{ text: 'Der Filter wird jährlich gereinigt.' }]));
      const read = await warmed.extract(pdf, 'pdf', docx);
      expect(read.blocks).toContainEqual(
        expect.objectContaining({ kind: 'paragraph', text: 'Der Filter wird jährlich gereinigt.' }),
      );
      expect(warmed.pids).toEqual(started);
    } finally {
      await warmed.close();
    }
  }, 60_000);

  it('is started with a worker by default (PARSER_WARM_START), before any upload', async () => {
    const t = await startTestServer({
      smtp: false,
      env: { PARSER_WARM_START: 'true', PARSER_PROCESSES: '1' },
    });
    try {
      const deadline = Date.now() + 30_000;
      while (t.server.ctx.parser.pids.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(t.server.ctx.parser.pids).toHaveLength(1);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('stops the OCR program of a document over its time limit together with the parser process', async () => {
    // An OCR program that never ends: a shell running a sleep of a length nothing else uses.
    const nap = `${(100 + Math.random()).toFixed(6)}`;
    const tesseract = write('tesseract', Buffer.from(`#!/bin/sh\nsleep ${nap}\n`));
    chmodSync(tesseract, 0o755);
    const running = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            return cmdline.includes(nap) || cmdline.includes(tesseract);
          } catch {
            return false; // ended meanwhile
          }
        });
    const limited = new ParserPool({ memoryMb: 1024, timeoutMs: 3_000 }, 1);
    try {
      const picture = write('foto.webp', TINY_WEBP);
      const read = outcome(
        limited.extract(picture, 'webp', {
          ocr: { ...DEFAULT_OCR_OPTIONS, tesseractPath: tesseract, timeoutMs: 60_000 },
        }),
      );
      const deadline = Date.now() + 10_000;
      while (running().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(running()).toHaveLength(2); // the shell and its sleep
      expect(await read).toBe('FILE_PARSE_LIMIT');
      // The next document, at once: a new process reads it, not the one being stopped.
      const small = write('danach.docx', await makeDocx([{ text: 'Danach geht es weiter.' }]));
      const next = limited.extract(small, 'docx', docx);
      const gone = Date.now() + 5_000;
      while (running().length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
      expect(running()).toEqual([]);
      expect((await next).blocks).toEqual([{ kind: 'paragraph', text: 'Danach geht es weiter.' }]);
    } finally {
      await limited.close();
    }
  }, 30_000);

  it('is sized by PARSER_PROCESSES, or to the machine with at least one process', () => {
    expect(parserPoolSize({ PARSER_PROCESSES: 3, PARSER_MEMORY_MB: 1024 })).toBe(3);
    expect(parserPoolSize({ PARSER_PROCESSES: 0, PARSER_MEMORY_MB: 1024 })).toBeGreaterThanOrEqual(1);
    // Memory caps the pool: no machine holds a process of 16 TB twice over.
    expect(parserPoolSize({ PARSER_PROCESSES: 0, PARSER_MEMORY_MB: 16 * 1024 * 1024 })).toBe(1);
  });
});
