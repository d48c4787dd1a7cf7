import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../apps/server/src/db/schema/index.ts';
import { insertDivision } from '../apps/server/test/support/chat-fixtures.ts';
import { createUser } from '../apps/server/test/support/factories.ts';
import { MemoryOAuthClient } from '../apps/server/test/support/mcp-oauth-client.ts';
import type { TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { missingKeys, openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
/** The loopback server a desktop client opens to receive the answer (RFC 8252), and what it received. */
let listener: Server;
let redirect: string;
const received: URL[] = [];

beforeAll(async () => {
  listener = createServer((request, response) => {
    // The redirect only: Chromium also asks the page's origin for /favicon.ico.
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url);
    response.end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  redirect = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
  t = await startAppServer({}, { smtp: false });
  // Clients reach the server at its PUBLIC_URL, which names the issuer and the resource.
  t.server.ctx.config.PUBLIC_URL = t.url;
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('connecting an MCP client by sign-in', () => {
  it('signs in, shows the consent page right to left in Arabic, and hands the client a working token', async () => {
    const { user, password, companyId } = await createUser(t, 'DataManager');
    await t.server.ctx.db.update(users).set({ language: 'ar' }).where(eq(users.id, user.id));
    const division = await insertDivision(t, companyId!, 'Heizung');
    const client = new MemoryOAuthClient('Claude Desktop', redirect);
    const serverUrl = new URL(`${t.url}/api/v1/mcp`);
    expect(await auth(client, { serverUrl })).toBe('REDIRECT');

    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(client.authorizationUrl!.href);
      // Not signed in: the login page, which comes back to the consent page.
      await page.waitForURL(/\/login\?to=%2Foauth%2Fconsent%2F/);
      await page.locator('input[name=email]').fill(user.email);
      await page.locator('input[name=password]').fill(password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(/\/oauth\/consent\/[\w-]+$/);
      await page.getByRole('heading', { name: text('ar', 'pages.oauthConsent.heading') }).waitFor();
      await page.getByText(text('ar', 'pages.oauthConsent.intro', { client: 'Claude Desktop' })).waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await missingKeys(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: text('ar', 'pages.oauthConsent.allow') }).click();
      await page.waitForURL(`${redirect}?**`);
      expect(received).toHaveLength(1);
      expect(received[0]!.searchParams.get('error')).toBeNull();
      const code = received[0]!.searchParams.get('code')!;
      expect(await auth(client, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }

    const mcp = new Client({ name: 'claude-desktop-e2e', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: client }));
    try {
      const listed = (await mcp.callTool({ name: 'list_divisions', arguments: {} })) as CallToolResult;
      expect(listed.isError).toBeFalsy();
      expect(listed.structuredContent).toEqual({
        divisions: [{ divisionId: division.id, name: 'Heizung', fileCount: 0 }],
      });
    } finally {
      await mcp.close();
    }
  });
});
