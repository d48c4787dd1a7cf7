import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { createUser, signedInAs } from '../../../test/support/factories.ts';
import { freshCode } from '../../../test/support/second-factor.ts';
import {
  ADMIN,
  registration,
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { emailOutbox, roles, userSecondFactors } from '../../db/schema/index.ts';
import { MASKED_TOKEN, sealLegacyLinks } from '../mail/hidden-link.ts';

/** Issue 28, finding 1: whoever reads the e-mail log must not be able to take over the accounts its mails reach. */

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function mailTo(client: ApiClient, email: string, template: string) {
  for (let i = 0; i < 100; i++) {
    const { items } = (await client.get(`/admin/emails?q=${encodeURIComponent(email)}&pageSize=100`)).body;
    const found = items.find((m: { template: string; status: string }) => m.template === template);
    if (found && found.status !== 'queued') return found as { id: string; status: string };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${template} mail to ${email}`);
}

async function activity(admin: ApiClient, action: string, count: number) {
  let items: Array<{ action: string; actorEmail: string; statusCode: number; changes: unknown }> = [];
  for (let i = 0; i < 100 && items.length < count; i++) {
    items = (await admin.get(`/admin/activity-log?action=${action}&pageSize=100`)).body.items;
    await new Promise((r) => setTimeout(r, 100));
  }
  return items;
}

describe('single-use links in the e-mail log (SMTP configured)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  /** Each kind of mail with a single-use link, caused the way its users cause it; answers the recipient. */
  const KINDS: Record<string, () => Promise<string>> = {
    passwordReset: async () => {
      const { user } = await createUser(t, 'Employee');
      expect((await t.client().post('/auth/forgot-password', { email: user.email })).status).toBe(200);
      return user.email;
    },
    setPassword: async () => {
      // The Administrator invites another Administrator.
      const admin = await signedInAdmin(t);
      const [role] = await t.server.ctx.db.select().from(roles).where(eq(roles.kind, 'Administrator'));
      const email = `neu-admin-${Date.now()}@betreiber.example`;
      const invited = await admin.post('/admin/staff', {
        email,
        firstName: 'Nora',
        lastName: 'Admin',
        language: 'de',
        roleIds: [role!.id],
      });
      expect(invited.status).toBe(201);
      return email;
    },
    verifyEmail: async () => {
      const body = registration();
      expect((await t.client().post('/auth/register', body)).status).toBe(201);
      return body.email;
    },
    changeEmail: async () => {
      const dm = await signedInDataManager(t);
      const email = `neu-${Date.now()}@firma.example`;
      const asked = await dm.client.post('/auth/change-email', { email, currentPassword: dm.password });
      expect(asked.status).toBe(200);
      return email;
    },
  };

  it.each(Object.keys(KINDS))(
    '%s: staff read the mail with its link masked; the recipient gets the live link; reading is logged',
    async (template) => {
      const recipient = await KINDS[template]!();
      const sent = await t.smtp!.waitFor(
        (m) => m.to.includes(recipient) && m.link?.includes('token=') === true,
      );
      const token = tokenOf(sent.link!);
      expect(token).toHaveLength(43);

      const staff = await signedInAs(t, 'Staff');
      const { id } = await mailTo(staff.client, recipient, template);
      const read = await staff.client.get(`/admin/emails/${id}`);
      expect(read.status).toBe(200);
      for (const part of [read.body.subject, read.body.text, read.body.html])
        expect(part).not.toContain(token);
      expect(read.body.hiddenLink).toBe(true);
      expect(read.body.text).toContain(`token=${MASKED_TOKEN}`);
      expect(read.body.html).toContain(`token=${MASKED_TOKEN}`);
      // The mail as sent is the stored one with the real token in place of the mask.
      expect(sent.text.trim()).toBe(read.body.text.replaceAll(MASKED_TOKEN, token));
      // Sealed at rest: no column of the outbox holds the token in clear.
      const { rows } = await t.server.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from email_outbox where email_outbox::text like ${`%${token}%`}`,
      );
      expect(rows[0]!.n).toBe(0);
      // Staff never reveal a link; the Administrator does not reveal one that reached its recipient.
      const code = await freshCode(t, staff.user.email);
      expect((await staff.client.post(`/admin/emails/${id}/reveal-link`, { code })).status).toBe(403);
      const admin = await signedInAdmin(t);
      const delivered = await admin.post(`/admin/emails/${id}/reveal-link`, {
        code: await freshCode(t, ADMIN.email),
      });
      expect([delivered.status, delivered.body.error.code]).toEqual([409, 'EMAIL_LINK_DELIVERED']);

      const logged = await activity(admin, 'getEmail', 1);
      expect(logged).toContainEqual(
        expect.objectContaining({
          actorEmail: staff.user.email,
          statusCode: 200,
          changes: { before: null, after: { read: id, to: recipient, template } },
        }),
      );
    },
  );

  it('a resent copy goes out with the same live link and stays masked in the log', async () => {
    const { user } = await createUser(t, 'Employee');
    await t.client().post('/auth/forgot-password', { email: user.email });
    const first = await t.smtp!.waitFor((m) => m.to.includes(user.email) && m.link !== null);
    const admin = await signedInAdmin(t);
    const { id } = await mailTo(admin, user.email, 'passwordReset');
    const resent = await admin.post(`/admin/emails/${id}/resend`);
    expect(resent.status).toBe(202);
    const second = await t.smtp!.waitFor((m) => m.emailId === resent.body.emailId);
    expect(second.link).toBe(first.link);
    const copy = (await admin.get(`/admin/emails/${resent.body.emailId}`)).body;
    expect(copy.hiddenLink).toBe(true);
    expect(copy.text).not.toContain(tokenOf(first.link!));
  });

  it('seals the links of mails written before they were sealed (an upgrade), once', async () => {
    const token = `${'A'.repeat(21)}_-${'b'.repeat(20)}`;
    const link = `${t.url}/confirm-password?token=${token}`;
    const [legacy] = await t.server.ctx.db
      .insert(emailOutbox)
      .values({
        to: 'alt@firma.example',
        template: 'passwordReset',
        language: 'de',
        subject: 'Passwort',
        // An edited template may put the address in brackets: the reveal still finds it.
        text: `Passwort festlegen (${link}).`,
        html: `<a href="${link}">Passwort</a><span dir="ltr">${link}</span>`,
        status: 'not_sent',
      })
      .returning();
    expect(await sealLegacyLinks(t.server.ctx)).toBeGreaterThanOrEqual(1);
    expect(await sealLegacyLinks(t.server.ctx)).toBe(0);
    const [row] = await t.server.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, legacy!.id));
    expect(row!.linkSealed).not.toBeNull();
    expect(`${row!.text}${row!.html}`).not.toContain(token);
    expect(row!.text).toBe(`Passwort festlegen (${t.url}/confirm-password?token=${MASKED_TOKEN}).`);
    const admin = await signedInAdmin(t);
    const revealed = await admin.post(`/admin/emails/${legacy!.id}/reveal-link`, {
      code: await freshCode(t, ADMIN.email),
    });
    expect(revealed.body).toEqual({ link });
  });
});

describe("the Administrator's reveal of an undelivered link (no SMTP)", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ smtp: false });
  });
  afterAll(() => t?.close());

  async function unsentVerification() {
    const body = registration();
    expect((await t.client().post('/auth/register', body)).status).toBe(201);
    const admin = await signedInAdmin(t);
    const mail = await mailTo(admin, body.email, 'verifyEmail');
    expect(mail.status).toBe('not_sent');
    return { admin, email: body.email, id: mail.id };
  }

  it('shows the link for a fresh authenticator code, once per code even in parallel, and logs it', async () => {
    const { admin, email, id } = await unsentVerification();
    const shown = await admin.get(`/admin/emails/${id}`);
    expect(shown.body.hiddenLink).toBe(true);
    expect(shown.body.text).toContain(`/verify?token=${MASKED_TOKEN}`);

    expect((await admin.post(`/admin/emails/${id}/reveal-link`, {})).body.error.code).toBe(
      'VALIDATION_FAILED',
    );
    const wrong = await admin.post(`/admin/emails/${id}/reveal-link`, { code: '000000' });
    expect([wrong.status, wrong.body.error.code]).toEqual([422, 'TWO_FACTOR_CODE_INVALID']);

    const code = await freshCode(t, ADMIN.email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => admin.post(`/admin/emails/${id}/reveal-link`, { code })),
    );
    const revealed = answers.filter((r) => r.status === 200);
    expect(revealed).toHaveLength(1);
    // The code is spent by the first; the others count as wrong codes, of which five fit in the window (one was
    // the wrong code above), the rest wait.
    const refused = answers.filter((r) => r.status !== 200).map((r) => r.body.error.code);
    expect(new Set(refused)).toEqual(new Set(['TWO_FACTOR_CODE_INVALID', 'RATE_LIMITED']));
    expect(refused.filter((c) => c === 'TWO_FACTOR_CODE_INVALID').length).toBeLessThanOrEqual(4);
    const { link } = revealed[0]!.body as { link: string };
    expect(link).toMatch(/\/verify\?token=[\w-]{43}$/);
    // The link is the live one: it confirms the address (and works once).
    expect((await t.client().post('/auth/verify-email', { token: tokenOf(link) })).status).toBe(200);

    const logged = await activity(admin, 'revealEmailLink', 3);
    expect(logged).toContainEqual(
      expect.objectContaining({
        actorEmail: ADMIN.email,
        statusCode: 200,
        changes: { before: null, after: { linkRevealed: id, to: email, template: 'verifyEmail' } },
      }),
    );
    // A mail without a link has nothing to reveal.
    const welcome = await mailTo(admin, email, 'welcome');
    const none = await admin.post(`/admin/emails/${welcome.id}/reveal-link`, {
      code: await freshCode(t, ADMIN.email),
    });
    expect([none.status, none.body.error.code]).toEqual([409, 'EMAIL_NO_HIDDEN_LINK']);
  });

  it('is refused to staff (403) and to an administrator without a second factor, whose wrong codes are limited', async () => {
    const { id } = await unsentVerification();
    const staff = await signedInAs(t, 'Staff');
    const code = await freshCode(t, staff.user.email);
    const refused = await staff.client.post(`/admin/emails/${id}/reveal-link`, { code });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await t.client().post(`/admin/emails/${id}/reveal-link`, { code })).status).toBe(401);

    // An administrator whose factor was reset while their session lives: no reveal until they enrol again.
    const other = await signedInAs(t, 'Administrator');
    const otherCode = await freshCode(t, other.user.email);
    await t.server.ctx.db.delete(userSecondFactors).where(eq(userSecondFactors.userId, other.user.id));
    const unenrolled = await other.client.post(`/admin/emails/${id}/reveal-link`, { code: otherCode });
    expect([unenrolled.status, unenrolled.body.error.code]).toEqual([409, 'TWO_FACTOR_NOT_ENROLLED']);

    // Guessing codes: five wrong ones in a quarter of an hour, also when sent at once.
    const third = await signedInAs(t, 'Administrator');
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        third.client.post(`/admin/emails/${id}/reveal-link`, { code: String(100000 + i) }),
      ),
    );
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(guesses.find((r) => r.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
