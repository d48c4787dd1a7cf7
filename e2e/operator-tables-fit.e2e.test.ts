import type { Language } from '@werkwissen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  signedInAdmin,
  signedInDataManager,
  type TestServer,
} from '../apps/server/test/support/test-server.ts';
import { artifactPath, openBrowser } from './support/browser.ts';
import { overflows } from './support/layout.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

/** A company name as long as German companies register them. */
const LONG_COMPANY = 'Gebäudetechnik und Sanitärinstallationen Schmidt-Leutheusser GmbH & Co. KG';

/** Cells whose text runs past the cell's own box into the next column (nothing may, cut or not). */
function overlapping(page: import('playwright-core').Page) {
  return page.locator('main table tbody td').evaluateAll((cells) =>
    cells.flatMap((cell) => {
      const box = cell.getBoundingClientRect();
      return [...cell.querySelectorAll('*')].flatMap((el) => {
        const inner = el.getBoundingClientRect();
        return inner.width > 0 && (inner.left < box.left - 1 || inner.right > box.right + 1)
          ? [
              `${cell.textContent}: ${Math.round(inner.left)}…${Math.round(inner.right)} outside ${Math.round(box.left)}…${Math.round(box.right)}`,
            ]
          : [];
      });
    }),
  );
}

describe.each(['de', 'ar'] as Language[])('the operator’s payments table on a phone in %s', (lang) => {
  it('keeps its columns apart and shows company names whole at 390 px', async () => {
    const company = `${LONG_COMPANY} ${lang.toUpperCase()}`;
    await signedInDataManager(t, { companyName: company });
    const admin = await signedInAdmin(t);
    expect((await admin.patch('/auth/me', { language: lang })).status).toBe(200);
    const browser = await openBrowser({ locale: lang, width: 390 });
    const { page } = browser;
    try {
      await page.goto(`${t.url}/admin/auth/login`);
      await page.locator('input[name=email]').fill(ADMIN.email);
      await page.locator('input[name=password]').fill(ADMIN.password);
      await page.locator('form button[type=submit]').click();
      await passSecondFactorInBrowser(page, t, ADMIN.email);
      await page.waitForURL(`${t.url}/admin/dashboard`);
      await page.goto(`${t.url}/admin/payments`);
      await page.getByRole('heading', { name: text(lang, 'admin.payments.title') }).waitFor();
      const name = page.getByRole('link', { name: company }).getByText(company);
      await name.waitFor();
      await page.screenshot({ path: artifactPath(`payments-${lang}-390.png`), fullPage: true });
      expect(await overflows(page, false)).toEqual([]);
      expect(await overlapping(page)).toEqual([]);
      // The name is not cut: its text fits its box.
      expect(
        await name.evaluate(
          (el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1,
        ),
      ).toBe(true);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
