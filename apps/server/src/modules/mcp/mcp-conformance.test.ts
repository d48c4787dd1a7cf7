import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import { apiKeys } from '../../db/schema/index.ts';

let t: TestServer;
let proxy: Server;
let proxyUrl: string;
let output: string;

/**
 * A local reverse proxy that adds the API key to every request, as a configured MCP client would: the conformance
 * CLI has no option for a header (it connects with the bare URL), and our server answers 401 without a key.
 */
function keyAddingProxy(target: string, token: string): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstream.host, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  const { user, companyId } = await createUser(t, 'DataManager');
  const token = `ww_${randomToken(32)}`;
  await t.server.ctx.db.insert(apiKeys).values({
    userId: user.id,
    companyId,
    name: 'Conformance',
    prefix: token.slice(0, 10),
    keyHash: sha256(token),
  });
  proxy = await keyAddingProxy(t.url, token);
  const address = proxy.address();
  if (!address || typeof address === 'string') throw new Error('proxy without a port');
  proxyUrl = `http://127.0.0.1:${address.port}/api/v1/mcp`;
  output = mkdtempSync(join(tmpdir(), 'ww-mcp-conformance-'));
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await t?.close();
  if (output) rmSync(output, { recursive: true, force: true });
});

const cli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

/**
 * The scenarios of the conformance suite (@modelcontextprotocol/conformance, pinned) that test what this server
 * offers: the handshake, ping and the tool list. The suite's other server scenarios test the fixture tools,
 * resources, prompts, logging and completions of its reference "everything" server (`test_simple_text`,
 * `test_image_content`, ...), which a knowledge server does not have; `dns-rebinding-protection` is for localhost
 * servers without authentication (ours refuses every request without a key, 401).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list'];

describe('the MCP conformance suite', () => {
  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const run = await promisify(execFile)(
      process.execPath,
      [cli, 'server', '--url', proxyUrl, '--scenario', scenario, '-o', output],
      { timeout: 60_000 },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    expect(run.stdout, run.stderr).toMatch(/Passed:\s*\d+\/\d+, 0 failed/);
    expect('code' in run ? run.code : 0).toBe(0);
  });
});
