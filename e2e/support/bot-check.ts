import type { Page } from 'playwright-core';

/** The ALTCHA widget's "I'm not a robot": its label (the box itself lies under the widget's drawn tick). */
const ALTCHA_BOX = 'altcha-widget label[for^=altcha-checkbox]';
const ALTCHA_VERIFIED = 'altcha-widget .altcha[data-state=verified]';
const ALTCHA_STATE = 'altcha-widget .altcha[data-state]';

/** How long one attempt may take before the visitor ticks the box again (a loaded CI machine needs seconds). */
const ATTEMPT_MS = 20_000;
const ATTEMPTS = 4;

/**
 * Solves the form's ALTCHA check (of a page, or of a frame in it) as a visitor does: ticks the box and waits until the proof of work is verified. A
 * visitor whose tick did nothing (the widget not yet listening, or its challenge request failed: state `error`)
 * ticks again; the widget itself starts over from `unverified` or `error`, never while `verifying`.
 */
export async function solveAltcha(page: Pick<Page, 'locator'>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const state = await page.locator(ALTCHA_STATE).getAttribute('data-state');
    if (state === 'verified') return;
    if (state !== 'verifying') await page.locator(ALTCHA_BOX).click();
    try {
      await page.locator(ALTCHA_VERIFIED).waitFor({ timeout: ATTEMPT_MS });
      return;
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
    }
  }
}
