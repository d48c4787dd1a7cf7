import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, signedInAs } from '../../../test/support/factories.ts';
import { authenticatorSecret, signIn } from '../../../test/support/second-factor.ts';
import { ADMIN, signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { userSecondFactors } from '../../db/schema/index.ts';
import { totpCode } from './totp.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

/** The clock the server and the "phone" read: a fixed instant, five seconds into a 30-second step. */
function freezeClockAt(stepsFromNow: number): number {
  const now = (Math.floor(Date.now() / 30_000) + stepsFromNow) * 30_000 + 5_000;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  return now;
}

async function staffWithPassword() {
  const { user, password } = await createUser(t, 'Staff');
  return { email: user.email, password, id: user.id };
}

describe('two-factor sign-in', () => {
  it('makes an operator enrol before any session exists, then asks for the code at every sign-in', async () => {
    const staff = await staffWithPassword();
    const client = t.client();
    const login = await client.post('/auth/login', {
      email: staff.email,
      password: staff.password,
      area: 'admin',
    });
    expect(login.body).toEqual({ secondFactor: 'enrol' });
    expect(client.cookies.has('ww_access')).toBe(false);
    expect(client.cookies.has('ww_2fa')).toBe(true);
    expect((await client.get('/auth/me')).status).toBe(401);

    const enrolment = await client.post('/auth/two-factor/enrolment');
    expect(enrolment.status).toBe(200);
    expect(enrolment.body.otpauthUri).toContain(`secret=${enrolment.body.secret}`);
    expect(enrolment.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    // Sealed at rest: the stored form is not the secret.
    const [stored] = await t.server.ctx.db
      .select()
      .from(userSecondFactors)
      .where(eq(userSecondFactors.userId, staff.id));
    expect(stored!.secretSealed).not.toContain(enrolment.body.secret);

    const now = freezeClockAt(0);
    expect((await client.post('/auth/two-factor/verify', { code: '000000' })).body.error.code).toBe(
      totpCode(enrolment.body.secret, now) === '000000' ? undefined : 'TWO_FACTOR_CODE_INVALID',
    );
    const done = await client.post('/auth/two-factor/verify', { code: totpCode(enrolment.body.secret, now) });
    expect(done.status).toBe(200);
    expect(done.body.userRole).toBe('Staff');
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(client.cookies.has('ww_2fa')).toBe(false);
    expect((await client.get('/auth/me')).status).toBe(200);
    // The refresh keeps the session; it never asks again.
    expect((await client.post('/auth/refresh')).status).toBe(200);

    // Next sign-in: a code, and the code of a step already used counts once.
    const again = t.client();
    expect(
      (await again.post('/auth/login', { email: staff.email, password: staff.password, area: 'admin' })).body,
    ).toEqual({
      secondFactor: 'verify',
    });
    const replayed = await again.post('/auth/two-factor/verify', {
      code: totpCode(enrolment.body.secret, now),
    });
    expect(replayed.body.error.code).toBe('TWO_FACTOR_CODE_INVALID');
    freezeClockAt(1);
    const next = await again.post('/auth/two-factor/verify', {
      code: totpCode(enrolment.body.secret, Date.now()),
    });
    expect(next.status).toBe(200);
    expect(next.body.recoveryCodes).toBeNull();
  });

  it('accepts a code of the neighbouring step, not two steps away', async () => {
    const staff = await staffWithPassword();
    await signIn(t, t.client(), { email: staff.email, password: staff.password, area: 'admin' });
    const secret = (await authenticatorSecret(t, staff.email))!;
    const now = freezeClockAt(5);
    const client = t.client();
    await client.post('/auth/login', { email: staff.email, password: staff.password, area: 'admin' });
    expect(
      (await client.post('/auth/two-factor/verify', { code: totpCode(secret, now - 60_000) })).status,
    ).toBe(422);
    expect(
      (await client.post('/auth/two-factor/verify', { code: totpCode(secret, now - 30_000) })).status,
    ).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const staff = await staffWithPassword();
    const first = t.client();
    await first.post('/auth/login', { email: staff.email, password: staff.password, area: 'admin' });
    const { secret } = (await first.post('/auth/two-factor/enrolment')).body;
    const { recoveryCodes } = (
      await first.post('/auth/two-factor/verify', { code: totpCode(secret, Date.now()) })
    ).body;
    const recoveryCode = (recoveryCodes[3] as string).toUpperCase();

    const second = t.client();
    await second.post('/auth/login', { email: staff.email, password: staff.password, area: 'admin' });
    expect((await second.post('/auth/two-factor/verify', { recoveryCode })).status).toBe(200);
    const third = t.client();
    await third.post('/auth/login', { email: staff.email, password: staff.password, area: 'admin' });
    expect((await third.post('/auth/two-factor/verify', { recoveryCode })).body.error.code).toBe(
      'TWO_FACTOR_CODE_INVALID',
    );
    expect((await second.get('/account/two-factor')).body).toEqual({
      enabled: true,
      required: true,
      recoveryCodesLeft: 9,
    });
  });

  it('ends the pending sign-in after five wrong codes, and refuses a verify without one', async () => {
    const staff = await staffWithPassword();
    await signIn(t, t.client(), { email: staff.email, password: staff.password, area: 'admin' });
    const secret = (await authenticatorSecret(t, staff.email))!;
    const client = t.client();
    await client.post('/auth/login', { email: staff.email, password: staff.password, area: 'admin' });
    const wrong = totpCode(secret, Date.now() + 10 * 60_000);
    for (let i = 0; i < 5; i++) await client.post('/auth/two-factor/verify', { code: wrong });
    const after = await client.post('/auth/two-factor/verify', { code: totpCode(secret, Date.now()) });
    expect(after.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    expect((await t.client().post('/auth/two-factor/verify', { code: '123456' })).body.error.code).toBe(
      'TWO_FACTOR_CHALLENGE_EXPIRED',
    );
    expect((await t.client().post('/auth/two-factor/enrolment')).status).toBe(401);
  });

  it('lets a data manager sign in with the password alone until they switch it on in their account', async () => {
    const dm = await signedInAs(t, 'DataManager');
    expect((await dm.client.get('/auth/me')).status).toBe(200);
    expect((await dm.client.get('/account/two-factor')).body).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });
    const { secret } = (await dm.client.post('/account/two-factor/enrolment')).body;
    const now = freezeClockAt(0);
    expect((await dm.client.post('/account/two-factor/confirm', { code: '12' })).status).toBe(422);
    const confirmed = await dm.client.post('/account/two-factor/confirm', { code: totpCode(secret, now) });
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    const login = await t.client().post('/auth/login', { email: dm.user.email, password: dm.password });
    expect(login.body).toEqual({ secondFactor: 'verify' });

    freezeClockAt(1);
    const off = await dm.client.post('/account/two-factor/disable', { code: totpCode(secret, Date.now()) });
    expect(off.status).toBe(200);
    const plain = await t.client().post('/auth/login', { email: dm.user.email, password: dm.password });
    expect(plain.body.userRole).toBe('DataManager');
  });

  it('never lets an operator switch it off', async () => {
    const staff = await signedInAs(t, 'Staff');
    const res = await staff.client.post('/account/two-factor/disable', { code: '123456' });
    expect(res.body.error.code).toBe('TWO_FACTOR_REQUIRED');
  });

  it('lets an administrator reset another user’s second factor, in the activity log; they enrol again', async () => {
    const admin = await signedInAdmin(t);
    const staff = await signedInAs(t, 'Staff');
    const res = await admin.delete(`/admin/users/${staff.user.id}/two-factor`);
    expect(res.status).toBe(204);
    expect(await authenticatorSecret(t, staff.user.email)).toBeNull();
    const login = await t
      .client()
      .post('/auth/login', { email: staff.user.email, password: staff.password, area: 'admin' });
    expect(login.body).toEqual({ secondFactor: 'enrol' });
    await expect
      .poll(async () => {
        const log = await admin.get('/admin/activity-log?q=resetUserTwoFactor&pageSize=100');
        return log.body.items.find(
          (e: { changes: { before: { userId: string } } | null }) =>
            e.changes?.before.userId === staff.user.id,
        )?.changes;
      })
      .toEqual({
        before: { userId: staff.user.id, twoFactorEnabled: true },
        after: { userId: staff.user.id, twoFactorEnabled: false },
      });
    const me = (await admin.get('/auth/me')).body.userData.id;
    expect((await admin.delete(`/admin/users/${me}/two-factor`)).body.error.code).toBe(
      'TWO_FACTOR_RESET_SELF',
    );
  });

  it('refuses the reset without a session (401), for staff (403) and for another company’s user (404)', async () => {
    const target = await signedInAs(t, 'Employee');
    const path = `/admin/users/${target.user.id}/two-factor`;
    expect((await t.client().delete(path)).status).toBe(401);
    expect((await (await signedInAs(t, 'Staff')).client.delete(path)).status).toBe(403);
    const otherCompany = await signedInAs(t, 'DataManager');
    expect((await otherCompany.client.delete(path)).status).toBe(404);
    expect((await t.client().get('/account/two-factor')).status).toBe(401);
  });

  it('signs the seeded administrator in with the helper the other tests use', async () => {
    const res = await signIn(t, t.client(), { ...ADMIN, area: 'admin' });
    expect(res.body.userRole).toBe('Administrator');
  });
});
