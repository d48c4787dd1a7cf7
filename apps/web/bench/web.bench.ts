/**
 * `npm run bench:web`: what the browser must download to render /login and /dashboard on a first visit (gzipped
 * JavaScript and CSS; /login also in each of the nine languages, whose texts and right-to-left styles differ), the
 * whole bundle, and the time to first paint of /login against an empty React root built
 * by the same Vite in the same run. The ratio survives a noisy machine; the absolute times do not. Prints figures,
 * asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LANGUAGES } from '@werkwissen/shared';
import type { Page } from 'playwright-core';
import { CHROMIUM, openBrowser } from '../../../e2e/support/browser.ts';
import { signedInDataManager, startTestServer } from '../../server/test/support/test-server.ts';

const webDir = new URL('..', import.meta.url).pathname;
const dist = join(webDir, 'dist');
const runs = Number(process.env.BENCH_RUNS ?? 9);

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const viteBin = new URL('../../../node_modules/vite/bin/vite.js', import.meta.url).pathname;
const vite = (root: string, ...args: string[]) =>
  execFileSync(process.execPath, [viteBin, 'build', root, '--logLevel', 'error', ...args], {
    stdio: 'inherit',
  });

process.stdout.write('building the web app...\n');
vite(webDir);

/** An empty React root, built by the same Vite and plugin, as the baseline. */
function buildBaseline(): string {
  const dir = mkdtempSync(join(webDir, '.bench-baseline-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
  );
  writeFileSync(
    join(dir, 'src/main.tsx'),
    "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<p>ready</p>);\n",
  );
  writeFileSync(
    join(dir, 'vite.config.mjs'),
    "import react from '@vitejs/plugin-react';\nexport default { plugins: [react()] };\n",
  );
  vite(dir, '--config', join(dir, 'vite.config.mjs'));
  return dir;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
function serveStatic(root: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const path = req.url === '/' ? '/index.html' : (req.url ?? '/');
    try {
      const body = readFileSync(join(root, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

async function withPage<T>(fn: (page: Page) => Promise<T>, locale?: string): Promise<T> {
  const browser = await openBrowser({ locale });
  try {
    return await fn(browser.page);
  } finally {
    await browser.close();
  }
}

/** The gzipped JS and CSS files a first visit of a path loads (in the browser language `locale`, default English). */
async function firstLoad(
  url: string,
  path: string,
  ready: string,
  prepare?: (page: Page) => Promise<void>,
  locale?: string,
) {
  return withPage(async (page) => {
    if (prepare) await prepare(page);
    const files = new Set<string>();
    page.on('response', (r) => {
      const p = new URL(r.url()).pathname;
      if (/\.(js|css)$/.test(p)) files.add(p);
    });
    await page.goto(`${url}${path}`);
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState('networkidle');
    let js = 0;
    let css = 0;
    for (const f of files) {
      const size = gz(join(dist, f));
      if (process.env.BENCH_VERBOSE) process.stdout.write(`  ${path} ${f} ${kb(size)}\n`);
      if (f.endsWith('.css')) css += size;
      else js += size;
    }
    return { js, css, files: files.size };
  }, locale);
}

async function firstPaint(url: string, ready: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(
      await withPage(async (page) => {
        await page.goto(url);
        await page.locator(ready).first().waitFor();
        return page.evaluate(() => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0];
          return fcp ? fcp.startTime : performance.now();
        });
      }),
    );
  }
  return times;
}

const t = await startTestServer({ smtp: false, env: { LOG_LEVEL: 'warn' } });
const baselineDir = buildBaseline();
const baseline = await serveStatic(join(baselineDir, 'dist'));
try {
  const { email, password } = await signedInDataManager(t, { language: 'en' });
  const login = await firstLoad(t.url, '/login', 'input[name=email]');
  const byLanguage: Array<{ language: string; js: number }> = [];
  for (const language of LANGUAGES) {
    const load = await firstLoad(t.url, '/login', 'input[name=email]', undefined, language);
    byLanguage.push({ language, js: load.js });
  }
  const heaviest = byLanguage.reduce((a, b) => (b.js > a.js ? b : a));
  const dashboard = await firstLoad(t.url, '/dashboard', '[data-testid=plan-card]', async (page) => {
    await page.goto(`${t.url}/login`);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(password);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(`${t.url}/dashboard`);
    await page.goto('about:blank');
  });
  const all = readdirSync(join(dist, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  const total = all.reduce((sum, f) => sum + gz(join(dist, 'assets', f)), 0);
  const baselineAssets = readdirSync(join(baselineDir, 'dist', 'assets')).filter((f) => f.endsWith('.js'));
  const baselineJs = baselineAssets.reduce((sum, f) => sum + gz(join(baselineDir, 'dist', 'assets', f)), 0);

  const app = await firstPaint(`${t.url}/login`, 'input[name=email]');
  const empty = await firstPaint(baseline.url, 'p');

  process.stdout.write(`\nChromium ${CHROMIUM}, ${runs} cold loads each, gzip level 9\n\n`);
  process.stdout.write(
    `first load of /login:     ${kb(login.js)} JS + ${kb(login.css)} CSS in ${login.files} files (target: JS under 200 KB)\n`,
  );
  process.stdout.write(
    `  in each language:       ${byLanguage.map((l) => `${l.language} ${kb(l.js)}`).join(', ')}; heaviest ${heaviest.language} (target: under 200 KB in each)\n`,
  );
  process.stdout.write(
    `first load of /dashboard: ${kb(dashboard.js)} JS + ${kb(dashboard.css)} CSS in ${dashboard.files} files\n`,
  );
  process.stdout.write(`whole bundle:             ${kb(total)} in ${all.length} files\n`);
  process.stdout.write(`empty React root:         ${kb(baselineJs)} JS\n\n`);
  process.stdout.write(`first contentful paint of /login: median ${median(app).toFixed(0)} ms\n`);
  process.stdout.write(`empty React root:                 median ${median(empty).toFixed(0)} ms\n`);
  process.stdout.write(`ratio: ${(median(app) / median(empty)).toFixed(2)}x the empty root\n`);
} finally {
  baseline.close();
  rmSync(baselineDir, { recursive: true, force: true });
  await t.close();
}
