import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { userSecondFactors, users } from '../../apps/server/src/db/schema/index.ts';
import { totpCode } from '../../apps/server/src/modules/auth/totp.ts';
import { authenticatorSecret } from '../../apps/server/test/support/second-factor.ts';
import type { TestServer } from '../../apps/server/test/support/test-server.ts';

/**
 * After the password of an operator was sent on a sign-in page: acts as their authenticator app. The first time it
 * sets the app up from the secret the page shows and goes on past the recovery codes; later it types the current
 * code (its single use forgotten first, as a test signs in many times within one 30-second step).
 */
export async function passSecondFactorInBrowser(page: Page, t: TestServer, email: string): Promise<void> {
  const db = t.server.ctx.db;
  const [factor] = await db
    .select({ userId: userSecondFactors.userId, confirmedAt: userSecondFactors.confirmedAt })
    .from(userSecondFactors)
    .innerJoin(users, eq(users.id, userSecondFactors.userId))
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  const code = page.locator('input[name=second-factor]');
  if (factor?.confirmedAt) {
    await code.waitFor();
    await db
      .update(userSecondFactors)
      .set({ lastUsedStep: null })
      .where(eq(userSecondFactors.userId, factor.userId));
    await code.fill(totpCode((await authenticatorSecret(t, email))!, Date.now()));
    await page.locator('form button[type=submit]').click();
    return;
  }
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await code.fill(totpCode(secret, Date.now()));
  await page.locator('form button[type=submit]').click();
  await page.getByTestId('recovery-codes-continue').click();
}
