import { eq, sql } from 'drizzle-orm';
import { userSecondFactors, users } from '../../src/db/schema/index.ts';
import { SecretBox } from '../../src/modules/ai-providers/secret-box.ts';
import { totpCode } from '../../src/modules/auth/totp.ts';
import type { ApiClient, ApiResponse } from './api-client.ts';
import { TEST_SECRETS } from './test-database.ts';
import type { TestServer } from './test-server.ts';

/** The secret of a user's authenticator, as their phone holds it. */
export async function authenticatorSecret(t: TestServer, email: string): Promise<string | null> {
  const [row] = await t.server.ctx.db
    .select({ sealed: userSecondFactors.secretSealed })
    .from(userSecondFactors)
    .innerJoin(users, eq(users.id, userSecondFactors.userId))
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row ? new SecretBox(TEST_SECRETS.encryptionKey).open(row.sealed) : null;
}

/**
 * Acts as the user's authenticator app after a right password: enrols (an operator's first sign-in) or enters the
 * current code. A test signs a user in many times within one 30-second step, so the code's single use is forgotten
 * first (its own tests are in second-factor.test.ts). Answers the final response (the signed-in user).
 */
export async function passSecondFactor(
  t: TestServer,
  client: ApiClient,
  email: string,
  login: ApiResponse,
): Promise<ApiResponse> {
  const step = login.status === 200 ? login.body?.secondFactor : undefined;
  if (!step) return login;
  let secret: string | null;
  if (step === 'enrol') {
    const enrolment = await client.post('/auth/two-factor/enrolment');
    if (enrolment.status !== 200) throw new Error(`enrolment failed: ${JSON.stringify(enrolment.body)}`);
    secret = enrolment.body.secret;
  } else {
    secret = await authenticatorSecret(t, email);
    await t.server.ctx.db
      .update(userSecondFactors)
      .set({ lastUsedStep: null })
      .where(
        sql`${userSecondFactors.userId} = (select id from users where lower(email) = ${email.toLowerCase()})`,
      );
  }
  return client.post('/auth/two-factor/verify', { code: totpCode(secret!, Date.now()) });
}

/** Signs in through the login form's API and, when asked for it, the second factor. */
export async function signIn(
  t: TestServer,
  client: ApiClient,
  body: { email: string; password: string; area?: string; botCheck?: string },
): Promise<ApiResponse> {
  return passSecondFactor(t, client, body.email, await client.post('/auth/login', body));
}

/**
 * A code of the user's authenticator that the server has not seen yet, as the app shows it after the next 30-second
 * step: here the step of the sign-in is forgotten instead of waited for (the single use has its own tests).
 */
export async function freshCode(t: TestServer, email: string): Promise<string> {
  await t.server.ctx.db
    .update(userSecondFactors)
    .set({ lastUsedStep: null })
    .where(
      sql`${userSecondFactors.userId} = (select id from users where lower(email) = ${email.toLowerCase()})`,
    );
  return totpCode((await authenticatorSecret(t, email))!, Date.now());
}
