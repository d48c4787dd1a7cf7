import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { systemLogo } from '../../db/schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { BODY_LIMIT_BYTES: '4096' } });
});
afterAll(() => t?.close());

describe('health, readiness and public configuration', () => {
  it('reports the process alive and the database and job queue reachable', async () => {
    expect((await t.client().get('/health')).body).toEqual({ status: 'ok' });
    expect((await t.client().get('/ready')).body).toEqual({ status: 'ready', database: true, jobs: true });
  });

  it('gives the browser the public subset of the configuration only', async () => {
    const res = await t.client().get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      appMode: 'handwerk',
      signupEnabled: true,
      defaultLanguage: 'de',
      theme: { primaryColor: '#ff7526', surfaceDark: '#2F3349', mode: 'system' },
      limits: { divisions: 10000, employees: 10000, smtp: 10000, emailSettings: 10000 },
      botProtection: { provider: 'altcha' },
    });
    const text = JSON.stringify(res.body);
    for (const secret of Object.values(t.server.ctx.config.secrets)) expect(text).not.toContain(secret);
    expect(text).not.toContain(t.server.ctx.config.ADMIN_EMAIL);
    expect(text).not.toContain('DATA_DIR');
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document and the browsable docs', async () => {
    const doc = (await t.client().get('/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/v1/auth/login'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/v1/api-keys/{apiKeyId}'].delete).toBeDefined();
    const upload =
      doc.paths['/api/v1/divisions/{divisionId}/files'].post.requestBody.content['multipart/form-data'];
    expect(upload.schema.properties.files.items.format).toBe('binary');
    // Downloads are declared as what the server sends, binary, so that generated clients do not parse them as JSON.
    const downloads = {
      '/api/v1/handwerk/documents/{documentId}/pdf': 'application/pdf',
      '/api/v1/handwerk/documents/{documentId}/xrechnung.xml': 'application/xml',
      '/api/v1/handwerk/documents/{documentId}/factur-x.pdf': 'application/pdf',
      '/api/v1/billing/invoices/{invoiceId}/pdf': 'application/pdf',
    };
    for (const [path, type] of Object.entries(downloads)) {
      const content = doc.paths[path].get.responses['200'].content;
      expect(Object.keys(content), path).toEqual([type]);
      expect(content[type].schema, path).toMatchObject({ type: 'string', format: 'binary' });
    }
    const docs = await fetch(`${t.url}/api/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });
});

describe('headers', () => {
  it('sends security headers and a request id on every answer', async () => {
    const res = await fetch(`${t.url}/api/v1/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
  });

  it('tells browsers and proxies to keep no API answer, except what is public and says so (the logo)', async () => {
    const { client } = await signedInDataManager(t);
    for (const path of [
      '/auth/me',
      '/divisions',
      '/billing/status',
      '/divisions/00000000-0000-4000-8000-000000000000',
    ]) {
      expect((await client.get(path)).headers.get('cache-control')).toBe('no-store');
    }
    await t.server.ctx.db
      .insert(systemLogo)
      .values({
        content: Buffer.from('<svg/>'),
        contentType: 'image/svg+xml',
        sha256: 'matrix',
        sizeBytes: 6,
      })
      .onConflictDoNothing();
    const logo = await client.get('/branding/logo?v=1');
    expect([logo.status, logo.headers.get('cache-control')]).toEqual([200, 'public, max-age=300']);
  });

  it('carries the request id into error bodies', async () => {
    const res = await t.client().get('/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });
});

describe('bad input never becomes a 500', () => {
  it('answers INVALID_JSON for malformed JSON', async () => {
    const res = await t.client().request('POST', '/auth/login', undefined, {
      headers: { 'content-type': 'application/json' },
      rawBody: '{"email": ',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_JSON');
  });

  it('answers VALIDATION_FAILED for wrong types', async () => {
    const res = await t.client().post('/auth/login', { email: 42, password: ['x'] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers PAYLOAD_TOO_LARGE for an oversized body', async () => {
    const res = await t.client().post('/auth/login', { email: 'a@b.de', password: 'x'.repeat(10_000) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    const res = await t.client().request('POST', '/auth/login', undefined, {
      headers: { 'content-type': 'text/xml' },
      rawBody: '<login/>',
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers in the language the caller asks for', async () => {
    const client = t.client();
    client.language = 'ar;q=0.9, xx';
    const res = await client.post('/auth/login', { email: 'nobody@nowhere.example', password: 'x' });
    expect(res.body.error.message).toMatch(/[\u0600-\u06FF]/);
  });

  it('never leaves a stack trace in an error body', async () => {
    const res = await t.client().request('POST', '/auth/register', undefined, {
      headers: { 'content-type': 'application/json' },
      rawBody: '[1,2,3]',
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('logs', () => {
  it('never contain passwords, tokens, cookies or API keys', async () => {
    const { client, password } = await signedInDataManager(t);
    const key = (await client.post('/api-keys', { name: 'log-test' })).body.token as string;
    const script = t.client();
    script.bearer = key;
    await script.get('/auth/me');
    await client.post('/auth/refresh');
    await client.post('/auth/change-password', {
      currentPassword: password,
      password: 'log-geheim-9',
      confirmPassword: 'log-geheim-9',
    });
    await fetch(`${t.url}/verify?token=secret-mail-token-123`);
    // WhatsApp's verify token (Meta's handshake) and a public chat's share token, in the API and the pages.
    const share = 'Share_token-secret-4567890';
    await fetch(
      `${t.url}/api/v1/webhooks/whatsapp/matrix-key?hub.mode=subscribe&hub.verify_token=wa-verify-secret-1&hub.challenge=7`,
    );
    await fetch(`${t.url}/api/v1/public/chats/${share}`);
    await fetch(`${t.url}/api/v1/public/chats/${share}/messages`);
    await fetch(`${t.url}/p/${share}`);
    await fetch(`${t.url}/feedback-21chatgpt?lang=de&chat=${share}`);
    const logs = t.logs.join('\n');
    expect(logs).toContain('/verify?token=[redacted]');
    expect(logs).toContain('hub.verify_token=[redacted]&hub.challenge=7');
    expect(logs).toContain('/api/v1/public/chats/[redacted]/messages');
    expect(logs).toContain('"/p/[redacted]"');
    expect(logs).toContain('/feedback-21chatgpt?lang=de&chat=[redacted]');
    for (const secret of [
      password,
      'log-geheim-9',
      key,
      'secret-mail-token-123',
      'wa-verify-secret-1',
      share,
    ]) {
      expect(logs).not.toContain(secret);
    }
    for (const value of client.cookies.values()) expect(logs).not.toContain(value);
    for (const line of t.logs.join('').trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });
});
