/**
 * Real-document robustness check: `npm run check:documents -- --data ../shared/eval` (or `--data=PATH`, or the
 * path as the first argument after `--`; a relative path is taken from the directory npm was started in).
 *
 * Reads `documents/manifest.csv` of the evaluation folder (columns kind,local,...,note; rows of kind `doc` are the
 * documents, `truth` rows are expected outputs and ignored): public files from document libraries' test suites,
 * among them right-to-left PDFs, tables, scans without text, password-protected and corrupt files, empty files,
 * odd text encodings and random bytes posing as documents. It starts the real server (API + worker) on a throwaway
 * embedded PGlite with the default upload limit, registers one data manager (language en) with one division, and
 * uploads every document one by one under its own file name, recording the answer (accepted, or rejected with its
 * error code and message). Then it waits for each accepted file's final status (ready, failed or cancelled; at most
 * 180 s per file) and prints a table: file, note, bytes, sniffed kind, upload outcome, final status, error code,
 * passages, pages, language and seconds (processing time: from the start of extraction to ready or failed; the
 * wait in the queue behind the other files is not counted; blank when the file never became final). It ends with
 * counts per final status, checks that the server still answers GET /health, and that a small .docx uploaded
 * after all of them still becomes ready ("the next upload unaffected").
 * The table is also written to test-artifacts/documents-report.md (git-ignored).
 * The server runs in this process: an unhandled rejection or uncaught exception in it (which would end a real server
 * process: Node's default) is caught here, reported against the file being waited for, and counted as a crash, so
 * that the run still finishes its table.
 * A document that fails is a finding, not a failure of this check: it exits 0 unless the server crashed or the
 * final upload did not become ready (1), or the evaluation folder is missing (2).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_DEFAULTS } from '@werkwissen/shared';
import { parse } from 'csv-parse/sync';
import type { ApiClient } from '../test/support/api-client.ts';
import { makeDocx, waitForFile } from '../test/support/documents.ts';
import { signedInDataManager, startTestServer } from '../test/support/test-server.ts';
import {
  BENCH_SERVER_ENV,
  closeWithin,
  errorLines,
  flag,
  fmt,
  machineLine,
  positionals,
  printDistinct,
  printTable,
  revisionLine,
  sleep,
  userPath,
} from './support/bench-kit.ts';

const FILE_TIMEOUT_MS = 180_000;
const REPORT = fileURLToPath(new URL('../../../test-artifacts/documents-report.md', import.meta.url));
const FINAL = new Set(['ready', 'failed', 'cancelled']);

/** What would have ended a real server process (unhandled rejections, uncaught exceptions), in order. */
const crashes: string[] = [];
const describe = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .replaceAll('\0', '\\0')
    .split('\n')[0]!
    .slice(0, 200);
process.on('unhandledRejection', (error) => {
  crashes.push(`unhandled rejection: ${describe(error)}`);
  console.log(`  SERVER CRASH (unhandled rejection): ${describe(error)}`);
});
process.on('uncaughtException', (error) => {
  crashes.push(`uncaught exception: ${describe(error)}`);
  console.log(`  SERVER CRASH (uncaught exception): ${describe(error)}`);
});

interface ManifestRow {
  kind: string;
  local: string;
  note: string;
}

interface FileView {
  id: string;
  kind: string;
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
  passageCount: number;
  pageCount: number | null;
  language: string | null;
  readyAt: string | null;
  steps: Array<{ step: string; startedAt: string; finishedAt: string | null }>;
}

interface Row {
  file: string;
  note: string;
  bytes: number;
  kind: string;
  upload: string;
  uploadMessage: string;
  fileId: string | null;
  status: string;
  errorCode: string;
  message: string;
  passages: string;
  pages: string;
  language: string;
  seconds: string;
}

function dataFolder(): string | null {
  const given = flag('data') || positionals(['data'])[0];
  if (!given) return null;
  return userPath(given);
}

function missingData(path: string | null): never {
  console.error(
    [
      path
        ? `The evaluation folder was not found: ${join(path, 'documents', 'manifest.csv')} does not exist.`
        : 'No evaluation folder given.',
      'This check needs the shared evaluation material (public third-party documents, never copied into this',
      'repository): the folder `eval` next to the project (../shared/eval from the repository root; see its',
      'README.md). Pass its path:',
      '  npm run check:documents -- --data ../shared/eval',
    ].join('\n'),
  );
  process.exit(2);
}

/** Polls a file until it is final; answers it, or null when it vanished (404) or the time ran out. */
async function waitFinal(
  client: ApiClient,
  fileId: string,
): Promise<{ file: FileView | null; note: string; seconds: number }> {
  const start = performance.now();
  const deadline = Date.now() + FILE_TIMEOUT_MS;
  for (;;) {
    let res: Awaited<ReturnType<ApiClient['get']>>;
    try {
      res = await client.get(`/files/${fileId}`);
    } catch (error) {
      return { file: null, note: `request failed: ${(error as Error).message}`, seconds: 0 };
    }
    if (res.status === 404) return { file: null, note: 'gone (404)', seconds: 0 };
    if (res.status !== 200) return { file: null, note: `HTTP ${res.status}`, seconds: 0 };
    const file = res.body as FileView;
    if (FINAL.has(file.status)) return { file, note: '', seconds: (performance.now() - start) / 1000 };
    if (Date.now() > deadline) return { file, note: `still ${file.status} after 180 s`, seconds: 180 };
    await sleep(200);
  }
}

/** Processing time: from the start of the first step to ready (or the last step's end). */
function processingSeconds(file: FileView): number | null {
  const starts = file.steps.map((s) => new Date(s.startedAt).getTime());
  if (starts.length === 0) return null;
  const ends = file.steps.flatMap((s) => (s.finishedAt ? [new Date(s.finishedAt).getTime()] : []));
  const end = file.readyAt ? new Date(file.readyAt).getTime() : Math.max(...ends);
  return Number.isFinite(end) ? (end - Math.min(...starts)) / 1000 : null;
}

async function healthy(client: ApiClient): Promise<boolean> {
  try {
    const res = await client.get('/health');
    return res.status === 200 && res.body?.status === 'ok';
  } catch {
    return false;
  }
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const md = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

function writeReport(rows: Row[], summary: string[], dataPath: string): void {
  const lines = [
    '# Real-document check',
    '',
    `Generated by \`npm run check:documents\` on ${new Date().toISOString()} from \`${dataPath}\`.`,
    `${machineLine()}`,
    `${revisionLine()}`,
    '',
    ...summary.map((s) => (s.startsWith('  ') ? `  - ${s.trim()}` : `- ${s}`)),
    '',
    '| file | note | bytes | kind | upload | final status | error code | passages | pages | language | seconds | message |',
    '|---|---|--:|---|---|---|---|--:|--:|---|--:|---|',
    ...rows.map(
      (r) =>
        `| ${md(r.file)} | ${md(r.note)} | ${r.bytes} | ${r.kind} | ${md(r.upload)} | ${r.status} | ${r.errorCode} | ` +
        `${r.passages} | ${r.pages} | ${r.language} | ${r.seconds} | ${md(r.uploadMessage || r.message)} |`,
    ),
    '',
  ];
  mkdirSync(join(REPORT, '..'), { recursive: true });
  writeFileSync(REPORT, lines.join('\n'));
}

async function main(): Promise<number> {
  const dataPath = dataFolder();
  const manifestPath = dataPath ? join(dataPath, 'documents', 'manifest.csv') : null;
  if (!dataPath || !manifestPath || !existsSync(manifestPath)) missingData(dataPath);
  const manifest = parse(readFileSync(manifestPath), {
    columns: true,
    skip_empty_lines: true,
  }) as ManifestRow[];
  const docs = manifest.filter((m) => m.kind === 'doc');
  console.log(machineLine());
  console.log(revisionLine());
  console.log(`${docs.length} documents from ${manifestPath}`);

  const t = await startTestServer({
    smtp: false,
    env: { ...BENCH_SERVER_ENV, UPLOAD_MAX_MB: CONFIG_DEFAULTS.UPLOAD_MAX_MB },
  });
  let crashed = false;
  let sanityOk = false;
  const rows: Row[] = [];
  try {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const division = await client.post('/divisions', { name: 'Real documents' });
    if (division.status !== 201) throw new Error(`division: ${JSON.stringify(division.body)}`);
    const divisionId = division.body.id as string;

    for (const doc of docs) {
      const path = join(dataPath, 'documents', doc.local);
      const name = basename(doc.local);
      const row: Row = {
        file: name,
        note: doc.note,
        bytes: 0,
        kind: '',
        upload: '',
        uploadMessage: '',
        fileId: null,
        status: '',
        errorCode: '',
        message: '',
        passages: '',
        pages: '',
        language: '',
        seconds: '',
      };
      rows.push(row);
      if (!existsSync(path)) {
        row.upload = 'missing locally';
        continue;
      }
      const content = readFileSync(path);
      row.bytes = content.length;
      try {
        const res = await client.upload(`/divisions/${divisionId}/files`, [{ name, content }]);
        const result = res.body?.results?.[0] ?? res.body?.error?.details?.results?.[0];
        if (res.status === 201 && result?.accepted) {
          row.upload = 'accepted';
          row.fileId = result.file.id;
          row.kind = result.file.kind;
        } else {
          const error = result?.error ?? res.body?.error;
          row.upload = `rejected ${res.status} ${error?.code ?? '?'}`;
          row.uploadMessage = error?.message ?? '';
          row.errorCode = error?.code ?? '';
          row.status = '-';
        }
      } catch (error) {
        row.upload = `request failed: ${(error as Error).message}`;
        row.status = '-';
      }
      process.stdout.write(`  uploaded ${rows.length}/${docs.length}: ${name} ${row.upload}\n`);
    }

    console.log('\nwaiting for processing...');
    for (const row of rows) {
      if (!row.fileId) continue;
      const crashesBefore = crashes.length;
      const { file, note } = await waitFinal(client, row.fileId);
      const crashed = crashes.slice(crashesBefore);
      const crashNote = crashed.length
        ? `SERVER CRASH while waiting for this file: ${crashed.join('; ')}`
        : '';
      if (!file) {
        row.status = note;
        row.message = crashNote;
        continue;
      }
      row.status = note || file.status;
      row.kind = file.kind;
      row.errorCode = file.errorCode ?? '';
      row.message = [crashNote, file.errorMessage ?? ''].filter(Boolean).join(' / ');
      row.passages = String(file.passageCount);
      row.pages = file.pageCount === null ? '' : String(file.pageCount);
      row.language = file.language ?? '';
      const seconds = FINAL.has(file.status) ? processingSeconds(file) : null;
      row.seconds = seconds === null ? '' : fmt(seconds, 2);
      console.log(`  ${row.file}: ${row.status}${row.errorCode ? ` ${row.errorCode}` : ''}`);
    }

    console.log('');
    printTable(
      ['file', 'note', 'bytes', 'upload', 'final', 'error code', 'passages', 'pages', 'lang', 'seconds'],
      rows.map((r) => [
        cut(r.file, 42),
        cut(r.note, 40),
        String(r.bytes),
        cut(r.upload, 36),
        r.status,
        r.errorCode,
        r.passages,
        r.pages,
        r.language,
        r.seconds,
      ]),
      [0, 1, 3, 4, 5, 8],
    );

    const counts = new Map<string, number>();
    for (const r of rows) {
      const key = r.upload === 'accepted' ? r.status : r.upload.replace(/^rejected \d+ /, 'rejected ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const byCode = new Map<string, string[]>();
    for (const r of rows) {
      if (!r.errorCode) continue;
      const key = `${r.upload === 'accepted' ? 'failed' : 'rejected'} ${r.errorCode}`;
      byCode.set(key, [...(byCode.get(key) ?? []), r.file]);
    }
    const summary = [
      `${rows.length} documents: ${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}`,
      ...[...byCode].map(([k, files]) => `${k} (${files.length}): ${files.join(', ')}`),
    ];

    const isHealthy = await healthy(client);
    const fatal = t.logs.some((l) => l.includes('"level":60'));
    crashed = crashes.length > 0 || fatal || !isHealthy;
    summary.push(
      `server crashed: ${crashes.length > 0 || fatal ? `YES (${crashes.length} unhandled errors that would end the process${fatal ? ', fatal log line' : ''}; caught by this check to finish the run)` : 'no'}`,
      ...crashes.map((c) => `  ${c}`),
      `server healthy afterwards (GET /health ok): ${isHealthy ? 'yes' : 'NO'}`,
    );
    if (isHealthy) {
      const docx = await makeDocx([
        { heading: 'Nach dem Test' },
        { text: `Die nächste Datei wird weiterhin verarbeitet (${new Date().toISOString()}).` },
      ]);
      const up = await client.upload(`/divisions/${divisionId}/files`, [
        { name: 'next-upload-sanity.docx', content: docx },
      ]);
      if (up.status === 201 && up.body.results[0].accepted) {
        const file = await waitForFile(client, up.body.results[0].file.id, undefined, 60_000).catch(
          (error: Error) => ({ status: error.message, errorCode: null }),
        );
        sanityOk = file.status === 'ready';
        summary.push(
          `the next upload unaffected (a small .docx uploaded afterwards becomes ready): ` +
            `${sanityOk ? 'yes' : `NO (${file.status} ${file.errorCode ?? ''})`}`,
        );
      } else {
        summary.push(
          `the next upload unaffected: NO (upload answered ${up.status} ${JSON.stringify(up.body)})`,
        );
      }
    }
    const errors = errorLines(t.logs);
    summary.push(`server error log lines: ${errors.length}`);

    console.log('');
    for (const s of summary) console.log(s);
    printDistinct('server logged errors', errors, 10);
    writeReport(rows, summary, dataPath);
    console.log(`report written to ${REPORT}`);
  } finally {
    const closed = await closeWithin('the server', () => t.close(), 20_000);
    if (!closed) crashed = true;
  }
  return crashed || !sanityOk ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
