import type { Page } from 'playwright-core';

/** The ALTCHA widget's "I'm not a robot": its label (the box itself lies under the widget's drawn tick). */
export const ALTCHA_BOX = 'altcha-widget label[for^=altcha-checkbox]';
export const ALTCHA_VERIFIED = 'altcha-widget .altcha[data-state=verified]';

/** Solves the form's ALTCHA check as a visitor does: ticks the box and waits until the proof of work is verified. */
export async function solveAltcha(page: Page): Promise<void> {
  await page.locator(ALTCHA_BOX).click();
  await page.locator(ALTCHA_VERIFIED).waitFor();
}
