import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  strongPassword,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { userTokens } from '../../db/schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token')!;
let n = 0;
const newAddress = () => `neu${++n}-${Date.now()}@anderswo.example`;

describe('changing the e-mail address', () => {
  it('mails a link to the new address, moves the account when it is opened, and tells the old address', async () => {
    const { client, email, password } = await signedInDataManager(t);
    const next = newAddress();
    const asked = await client.post('/auth/change-email', {
      email: next.toUpperCase(),
      currentPassword: password,
    });
    expect(asked.status).toBe(200);
    expect(asked.body.message).toBe(
      `Wir haben einen Bestätigungslink an ${next} gesendet. Ihre Adresse ändert sich, sobald Sie ihn öffnen.`,
    );
    const mail = await t.smtp!.waitFor((m) => m.to.includes(next));
    expect(mail.subject).toContain('neue E-Mail-Adresse');
    expect(mail.link).toContain('/confirm-email?token=');
    // Nothing changes before the link is opened: the old address still signs in.
    expect((await client.get('/auth/me')).body.userData.email).toBe(email);
    expect((await t.client().post('/auth/login', { email, password })).status).toBe(200);

    const confirmed = await t.client().post('/auth/confirm-email-change', { token: tokenOf(mail.link) });
    expect(confirmed.status).toBe(200);
    expect((await client.get('/auth/me')).body.userData).toMatchObject({ email: next, emailVerified: true });
    expect((await t.client().post('/auth/login', { email: next, password })).status).toBe(200);
    expect((await t.client().post('/auth/login', { email, password })).status).toBe(401);
    const notice = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('geändert'));
    expect(notice.text).toContain(next);

    const again = await t.client().post('/auth/confirm-email-change', { token: tokenOf(mail.link) });
    expect(again.body.error.code).toBe('TOKEN_INVALID');
  });

  it('refuses a wrong password, the own address, a taken one and an expired link', async () => {
    const { client, email, password } = await signedInDataManager(t);
    const other = await signedInDataManager(t);
    const wrong = await client.post('/auth/change-email', {
      email: newAddress(),
      currentPassword: 'falsch-Pass-1',
    });
    expect(wrong.body.error).toMatchObject({
      code: 'CURRENT_PASSWORD_WRONG',
      details: { field: 'currentPassword' },
    });
    const same = await client.post('/auth/change-email', { email, currentPassword: password });
    expect(same.body.error).toMatchObject({ code: 'EMAIL_UNCHANGED', details: { field: 'email' } });
    const taken = await client.post('/auth/change-email', { email: other.email, currentPassword: password });
    expect(taken.body.error).toMatchObject({ code: 'EMAIL_TAKEN', details: { field: 'email' } });

    // An address taken between the request and the link stays with whoever took it first.
    const contested = newAddress();
    await client.post('/auth/change-email', { email: contested, currentPassword: password });
    const link = (await t.smtp!.waitFor((m) => m.to.includes(contested))).link;
    await other.client.post('/auth/change-email', { email: contested, currentPassword: other.password });
    const otherLink = (await t.smtp!.waitFor((m) => m.to.includes(contested) && m.link !== link)).link;
    expect((await t.client().post('/auth/confirm-email-change', { token: tokenOf(otherLink) })).status).toBe(
      200,
    );
    const late = await t.client().post('/auth/confirm-email-change', { token: tokenOf(link) });
    expect(late.body.error.code).toBe('EMAIL_TAKEN');

    const expiring = newAddress();
    await client.post('/auth/change-email', { email: expiring, currentPassword: password });
    const expired = (await t.smtp!.waitFor((m) => m.to.includes(expiring))).link;
    await t.server.ctx.db
      .update(userTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(sql`${userTokens.newEmail} = ${expiring}`);
    const tooLate = await t.client().post('/auth/confirm-email-change', { token: tokenOf(expired) });
    expect(tooLate.body.error.code).toBe('TOKEN_INVALID');
    expect((await client.get('/auth/me')).body.userData.email).toBe(email);
  });

  it('is refused while an operator views the product as the user', async () => {
    const { email } = await signedInDataManager(t);
    const admin = await signedInAdmin(t);
    const [user] = (await admin.get(`/admin/users/data-managers?q=${encodeURIComponent(email)}`)).body.items;
    expect((await admin.post('/admin/impersonation', { userId: user.id })).status).toBe(200);
    const res = await admin.post('/auth/change-email', {
      email: newAddress(),
      currentPassword: strongPassword,
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('IMPERSONATION_RESTRICTED');
  });
});
