import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('POST /auth/register', () => {
  it('creates the company, its data manager and a trial, and mails a working verification link', async () => {
    const body = registration({ email: 'Neu.Kunde@Firma.example', language: 'de' });
    const client = t.client();
    const res = await client.post('/auth/register', body);
    expect(res.status).toBe(201);
    expect(res.body.message).toMatch(/E-Mail/);

    const mail = await t.smtp!.waitFor((m) => m.to.includes('neu.kunde@firma.example'));
    expect(mail.subject).toContain('Bestätigen Sie');
    expect(mail.link).toMatch(/\/verify\?token=/);

    const login = await client.post('/auth/login', {
      email: 'neu.kunde@firma.example',
      password: body.password,
    });
    expect(login.status).toBe(200);
    expect(login.body.userRole).toBe('DataManager');
    expect(login.body.userData.emailVerified).toBe(false);
    expect(login.body.userData.companyName).toBe('Müller Haustechnik GmbH');

    const token = new URL(mail.link!).searchParams.get('token');
    const verified = await client.post('/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    const welcome = await t.smtp!.waitFor(
      (m) => m.to.includes('neu.kunde@firma.example') && m.subject.includes('Willkommen'),
    );
    expect(welcome.text).toContain('Jörg');
    const me = await client.get('/auth/me');
    expect(me.body.userData.emailVerified).toBe(true);

    const again = await client.post('/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('TOKEN_INVALID');
  });

  it('refuses an address that is taken, whatever its case', async () => {
    const body = registration();
    expect((await t.client().post('/auth/register', body)).status).toBe(201);
    const dup = await t.client().post('/auth/register', { ...body, email: body.email.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('EMAIL_TAKEN');
  });

  it('reports every broken field with the spec wording, in the caller language', async () => {
    const client = t.client();
    client.language = 'en';
    const res = await client.post('/auth/register', {
      ...registration(),
      email: 'not-an-email',
      password: 'short',
      confirmPassword: 'other',
      acceptTerms: false,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.message).toBe('Please fill out the form correctly.');
    const byField = (f: string) =>
      res.body.error.details.fields.filter((x: { field: string }) => x.field === f);
    expect(byField('email')[0].message).toBe('Email must be valid!');
    expect(byField('acceptTerms')[0].message).toBe('You must accept the terms and conditions to proceed.');
    expect(byField('password').map((x: { code: string }) => x.code)).toContain(
      'validation.passwordMinLength',
    );
  });

  it.each([
    ['no lowercase letter', 'NOLOWER123'],
    ['no number, symbol or space', 'onlyletters'],
    ['fewer than 8 characters', 'ab1'],
  ])('refuses a password with %s', async (_case, password) => {
    const res = await t
      .client()
      .post('/auth/register', registration({ password, confirmPassword: password }));
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields.some((f: { field: string }) => f.field === 'password')).toBe(true);
  });

  it('refuses mismatched confirmation with the spec text', async () => {
    const client = t.client();
    client.language = 'en';
    const res = await client.post('/auth/register', registration({ confirmPassword: 'sicher-Pass-2' }));
    expect(res.status).toBe(422);
    const field = res.body.error.details.fields.find((f: { field: string }) => f.field === 'confirmPassword');
    expect(field.message).toBe('New password and confirm password do not match.');
  });

  it('refuses unknown fields', async () => {
    const res = await t.client().post('/auth/register', { ...registration(), kind: 'Administrator' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields[0], JSON.stringify(res.body)).toMatchObject({
      code: 'validation.unknownField',
      field: 'kind',
    });
  });
});

describe('sign-up flag', () => {
  it('answers 403 SIGNUP_DISABLED when sign-up is off', async () => {
    const closed = await startTestServer({ env: { SIGNUP_ENABLED: 'false' }, smtp: false });
    try {
      const res = await closed.client().post('/auth/register', registration());
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('SIGNUP_DISABLED');
    } finally {
      await closed.close();
    }
  });
});
