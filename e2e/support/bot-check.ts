import type { Page } from 'playwright-core';

/** Solves the form's ALTCHA check as a visitor does: ticks the box and waits until the proof of work is verified. */
export async function solveAltcha(page: Page): Promise<void> {
  await page.locator('altcha-widget input[type=checkbox]').click();
  await page
    .locator('altcha-widget[data-state=verified], altcha-widget .altcha[data-state=verified]')
    .first()
    .waitFor();
}
