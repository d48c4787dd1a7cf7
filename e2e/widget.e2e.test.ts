import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../apps/server/test/support/knowledge.ts';
import type { TestServer } from '../apps/server/test/support/test-server.ts';
import { solveAltcha } from './support/bot-check.ts';
import { failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

const MANUAL =
  'Der Filter der Wärmepumpe wird alle sechs Monate gereinigt. Danach wird der Wasserdruck geprüft.';

/**
 * A company's website on an origin of its own (`localhost` and another port: another site than the server's
 * 127.0.0.1), with hostile styles of its own, and the snippet the data manager copied.
 */
async function website(snippet: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Bäckerei Muster</title>` +
        `<style>button, iframe { display: none !important; } * { font-size: 40px !important; }</style></head>` +
        `<body><h1>Bäckerei Muster</h1><p>Frische Brötchen jeden Morgen.</p>${snippet()}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

let t: TestServer;
let snippet = '';
let allowed: Awaited<ReturnType<typeof website>>;
let other: Awaited<ReturnType<typeof website>>;
beforeAll(async () => {
  t = await startAppServer({}, { smtp: false });
  [allowed, other] = await Promise.all([website(() => snippet), website(() => snippet)]);
});
afterAll(async () => {
  await t?.close();
  allowed?.server.close();
  other?.server.close();
});

/** The launcher's button on the website (inside its shadow root). */
const launcher = (page: Page) => page.locator('[data-werkwissen-widget] button');

describe('the chat widget on a website', () => {
  it('the data manager allows a website; there a visitor in Arabic gets a cited answer, elsewhere nothing shows', async () => {
    const dm = await companyWithFile(t, MANUAL, 'Heizung');
    const chat = await dm.client.post('/chats', {
      name: 'Kundenfragen',
      visibility: 'public',
      divisionIds: [dm.divisionId],
    });
    await dm.client.post(`/chats/${chat.body.id}/share`);
    // The company's colour (dark enough for white text on it).
    expect((await dm.client.put('/company/brand-color', { brandColor: '#1d6b3a' })).status).toBe(200);

    // The data manager turns the public chat into a widget on its share settings and copies the line.
    const manager = await openBrowser({ locale: 'en-US' });
    try {
      const page = manager.page;
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/chat?chat=${chat.body.id}`);
      await page.getByRole('button', { name: text('en', 'chat.share.title') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(text('en', 'chat.widget.enabled')).check();
      const origins = dialog.getByLabel(text('en', 'chat.widget.origins'));
      await origins.fill(`${allowed.origin}/shop`);
      await dialog.getByRole('button', { name: text('en', 'chat.widget.save') }).click();
      await dialog.getByText(text('en', 'validation.origin')).waitFor();
      await origins.fill(allowed.origin);
      await dialog.getByRole('button', { name: text('en', 'chat.widget.save') }).click();
      snippet = await dialog.getByTestId('widget-snippet').inputValue();
      expect(snippet).toMatch(
        new RegExp(`^<script src="${t.url}/widget\\.js" data-chat="[\\w-]+" async></script>$`),
      );
      expect(manager.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(manager.page, 'widget-settings-failure.png');
      throw await withPageText(manager.page, error);
    } finally {
      await manager.close();
    }

    // A visitor on the allowed website, whose browser speaks Arabic.
    const visitor = await openBrowser({ locale: 'ar' });
    try {
      const page = visitor.page;
      await page.goto(allowed.origin);
      await launcher(page).waitFor();
      expect(await launcher(page).getAttribute('aria-label')).toBe(text('ar', 'publicChat.widgetOpen'));
      await launcher(page).click();
      const frame = page.frames().find((f) => f.url().startsWith(`${t.url}/widget/`))!;
      expect(await frame.locator('html').getAttribute('dir')).toBe('rtl');
      // Button and panel in the company's colour: rgb(29, 107, 58) is #1d6b3a.
      const background = (element: Element) => getComputedStyle(element).backgroundColor;
      expect(await launcher(page).evaluate(background)).toBe('rgb(29, 107, 58)');
      expect(await frame.getByTestId('chat-widget').locator('> div').first().evaluate(background)).toBe(
        'rgb(29, 107, 58)',
      );
      // The bot check and the privacy notice come first, as on the share link's page.
      await frame.getByTestId('visitor-privacy').waitFor();
      await solveAltcha(frame);
      await frame.getByRole('button', { name: text('ar', 'publicChat.start') }).click();
      await frame
        .getByLabel(text('ar', 'chat.input'))
        .fill('Wie oft wird der Filter der Wärmepumpe gereinigt?');
      await frame.getByRole('button', { name: text('ar', 'chat.send') }).click();
      await frame
        .getByRole('log')
        .getByText(/alle sechs Monate gereinigt/)
        .waitFor();
      await frame
        .getByRole('button', { name: text('ar', 'chat.citation.open', { n: '1', file: 'Heizung.docx' }) })
        .first()
        .waitFor();
      // The website's scripts cannot read the conversation: the frame is another origin's.
      expect(await page.evaluate(() => document.querySelector('iframe')?.contentDocument ?? null)).toBeNull();
      expect(visitor.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(visitor.page, 'widget-visitor-failure.png');
      throw await withPageText(visitor.page, error);
    } finally {
      await visitor.close();
    }

    // The same line on a website that was not allowed: the browser refuses to frame the chat, no button shows.
    const stranger = await openBrowser({ locale: 'en-US' });
    try {
      const page = stranger.page;
      const refusals: string[] = [];
      page.on('console', (m) => {
        if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
      });
      await page.goto(other.origin);
      await expect.poll(() => refusals.length).toBeGreaterThan(0);
      expect(refusals[0]).toContain(`frame-ancestors ${allowed.origin}`);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame?.url() ?? '').not.toContain('/widget/');
      expect(await launcher(page).isVisible()).toBe(false);
    } finally {
      await stranger.close();
    }
  });
});
