import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { makeDocx, waitForFile } from '../../../test/support/documents.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { renderOutgoing, templateFor } from '../mail/outbox.service.ts';
import { companyLogo } from './company-logo.service.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

function put(client: ApiClient, path: string, name: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  return client.request('PUT', path, undefined, { form });
}

const orangePng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 232, g: 89, b: 12, alpha: 1 } } })
    .png()
    .toBuffer();

async function dataManager() {
  const dm = await signedInDataManager(t, { language: 'en' });
  const companyId = (await dm.client.get('/auth/me')).body.userData.companyId as string;
  return { ...dm, companyId };
}

describe('company logo', () => {
  it('is scaled on the server, served publicly as PNG, drawn in mails and handed to documents, and removed', async () => {
    const dm = await dataManager();
    expect((await dm.client.get('/company/branding')).body).toEqual({
      logo: null,
      brandColor: null,
      defaultDocument: null,
    });
    expect(await companyLogo(t.server.ctx, dm.companyId)).toBeNull();

    const saved = await put(dm.client, '/company/logo', 'logo.png', await orangePng(800, 400));
    expect(saved.status).toBe(200);
    expect(saved.body.logo).toMatchObject({ width: 200, height: 100 });
    expect(saved.body.logo.url).toMatch(new RegExp(`^/api/v1/branding/companies/${dm.companyId}/logo\\?v=`));

    const image = await fetch(`${t.url}${saved.body.logo.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    // Mails show it: the e-mail log's sandboxed preview has an opaque origin, and helmet's same-origin blocked it.
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const served = Buffer.from(await image.arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: 'png', width: 200, height: 100 });
    expect((await companyLogo(t.server.ctx, dm.companyId))?.equals(served)).toBe(true);

    const template = await templateFor(t.server.ctx.db, 'setPassword', 'en', {});
    const mail = await renderOutgoing(t.server.ctx, template, {
      template: 'setPassword',
      language: 'en',
      name: 'Jörg',
      actionPath: '/set-password?token=x',
      companyId: dm.companyId,
    });
    expect(mail.html).toContain(`<img src="${t.url}${saved.body.logo.url}`);
    const productMail = await renderOutgoing(t.server.ctx, template, {
      template: 'setPassword',
      language: 'en',
      name: 'Jörg',
      actionPath: '/set-password?token=x',
    });
    expect(productMail.html).not.toContain('<img');

    const removed = await dm.client.delete('/company/logo');
    expect(removed.body.logo).toBeNull();
    expect((await fetch(`${t.url}${saved.body.logo.url}`)).status).toBe(404);
    expect(await companyLogo(t.server.ctx, dm.companyId)).toBeNull();
  });

  it('refuses what is not an image, a file over the limit and an SVG with a script, keeping the logo it had', async () => {
    const dm = await dataManager();
    const first = await put(dm.client, '/company/logo', 'logo.png', await orangePng(60, 30));
    expect(first.status).toBe(200);

    const notImage = await put(dm.client, '/company/logo', 'logo.png', Buffer.from('%PDF-1.7\n'));
    expect([notImage.status, notImage.body.error.code]).toEqual([415, 'COMPANY_LOGO_NOT_IMAGE']);
    expect(notImage.body.error.message).toBe('The logo must be a PNG, JPEG or SVG image.');

    const large = await put(dm.client, '/company/logo', 'logo.png', Buffer.alloc(2 * 1024 * 1024 + 1, 1));
    expect([large.status, large.body.error.code]).toEqual([413, 'COMPANY_LOGO_TOO_LARGE']);
    expect(large.body.error.message).toContain('2 MB');

    const script = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const unsafe = await put(dm.client, '/company/logo', 'logo.svg', script);
    expect([unsafe.status, unsafe.body.error.code]).toEqual([422, 'COMPANY_LOGO_UNSAFE']);

    expect((await dm.client.get('/company/branding')).body.logo).toEqual(first.body.logo);
  });
});

/** A public chat of the data manager's company, and the token of its share link. */
async function publicChatOf(client: ApiClient): Promise<string> {
  const divisionId = (await client.post('/divisions', { name: 'Kundendienst' })).body.id as string;
  const chat = await client.post('/chats', {
    name: 'Kundenfragen',
    visibility: 'public',
    divisionIds: [divisionId],
  });
  return (await client.post(`/chats/${chat.body.id}/share`)).body.shareToken as string;
}

describe('company colour', () => {
  it('is saved for the company and shown on its public chat, not on another company’s', async () => {
    const dm = await dataManager();
    const other = await dataManager();
    const [token, otherToken] = await Promise.all([publicChatOf(dm.client), publicChatOf(other.client)]);
    const publicColor = async (shareToken: string) =>
      (await t.client().get(`/public/chats/${shareToken}`)).body.companyColor;
    expect(await publicColor(token)).toBeNull();

    const saved = await dm.client.put('/company/brand-color', { brandColor: '#1F5FA8' });
    expect(saved.status).toBe(200);
    expect(saved.body.brandColor).toBe('#1f5fa8');
    expect((await dm.client.get('/company/branding')).body.brandColor).toBe('#1f5fa8');
    expect(await publicColor(token)).toBe('#1f5fa8');
    // Each company's own: the other company's page and branding keep the product's colours.
    expect(await publicColor(otherToken)).toBeNull();
    expect((await other.client.get('/company/branding')).body.brandColor).toBeNull();

    const reset = await dm.client.put('/company/brand-color', { brandColor: null });
    expect(reset.body.brandColor).toBeNull();
    expect(await publicColor(token)).toBeNull();
  });

  it('refuses a colour that is no #rrggbb or too light to read, keeping the one it had', async () => {
    const dm = await dataManager();
    await dm.client.put('/company/brand-color', { brandColor: '#1f5fa8' });
    for (const brandColor of ['blue', '#12345', 'rgb(0,0,0)', '#1f5fa8; background: url(x)']) {
      const res = await dm.client.put('/company/brand-color', { brandColor });
      expect(res.status, brandColor).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    // Yellow: white text on it reaches 1.5:1.
    const light = await dm.client.put('/company/brand-color', { brandColor: '#ffcc00' });
    expect(light.status).toBe(422);
    expect(light.body.error.code).toBe('BRAND_COLOR_LOW_CONTRAST');
    expect(light.body.error.message).toContain('1.5:1');
    expect(light.body.error.message).toContain('4.5:1');
    expect((await dm.client.get('/company/branding')).body.brandColor).toBe('#1f5fa8');
  });

  it('is the data manager’s to set: no session 401, an employee 403', async () => {
    expect((await t.client().put('/company/brand-color', { brandColor: '#1f5fa8' })).status).toBe(401);
    const dm = await dataManager();
    const employee = await signedInAs(t, 'Employee', { companyId: dm.companyId });
    const res = await employee.client.put('/company/brand-color', { brandColor: '#000000' });
    expect(res.status).toBe(403);
    expect((await dm.client.get('/company/branding')).body.brandColor).toBeNull();
  });
});

describe('default document', () => {
  it('is checked like an upload and starts every new division, processed like an upload', async () => {
    const dm = await dataManager();
    const refused = await put(
      dm.client,
      '/company/default-document',
      'notes.bin',
      Buffer.from([0, 1, 2, 3, 255]),
    );
    expect([refused.status, refused.body.error.code]).toEqual([415, 'FILE_TYPE_UNSUPPORTED']);
    const empty = await put(dm.client, '/company/default-document', 'empty.docx', Buffer.alloc(0));
    expect(empty.body.error.code).toBe('FILE_EMPTY');

    const docx = await makeDocx([
      { heading: 'Hausordnung' },
      { text: 'Werkzeug wird abends ins Lager gebracht.' },
    ]);
    const saved = await put(dm.client, '/company/default-document', 'Hausordnung.docx', docx);
    expect(saved.status).toBe(200);
    expect(saved.body.defaultDocument).toMatchObject({
      name: 'Hausordnung.docx',
      kind: 'docx',
      sizeBytes: docx.length,
    });

    for (const name of ['Heizung', 'Sanitär']) {
      const division = await dm.client.post('/divisions', { name });
      expect(division.status).toBe(201);
      const list = await dm.client.get(`/divisions/${division.body.id}/files`);
      expect(list.body.items.map((f: { name: string }) => f.name)).toEqual(['Hausordnung.docx']);
      const ready = await waitForFile(dm.client, list.body.items[0].id);
      expect(ready.status).toBe('ready');
      expect(ready.passageCount).toBeGreaterThan(0);
    }

    const removed = await dm.client.delete('/company/default-document');
    expect(removed.body.defaultDocument).toBeNull();
    const later = await dm.client.post('/divisions', { name: 'Elektro' });
    expect((await dm.client.get(`/divisions/${later.body.id}/files`)).body.items).toEqual([]);
  });
});
