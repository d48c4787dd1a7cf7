import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { makeDocx, waitForFile } from '../../../test/support/documents.ts';
import { FakeWhatsApp } from '../../../test/support/fake-whatsapp.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
// Meta's Graph API, which checks the number the tour's last step connects.
const fake = new FakeWhatsApp();
beforeAll(async () => {
  await fake.start();
  t = await startTestServer({ smtp: false, env: fake.env() });
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
});

const done = async (client: ApiClient) =>
  Object.fromEntries(
    ((await client.get('/tour')).body.steps as { id: string; done: boolean }[]).map((s) => [s.id, s.done]),
  );

const DETAILS = {
  name: 'Müller Haustechnik GmbH',
  website: '',
  street: 'Hauptstraße 12',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '+49 30 1234567',
  email: 'info@mueller-haustechnik.example',
  vatId: 'DE136695976',
  taxNumber: '',
  standardTaxRate: 19,
  registerNumber: '',
  registryCourt: '',
  managingDirector: '',
  iban: 'DE89370400440532013000',
  bic: '',
};

describe('guided tour', () => {
  it('marks each step done by its real action, not by moving on', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const first = await client.get('/tour');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      version: 1,
      steps: [
        { id: 'logo', done: false },
        { id: 'companyDetails', done: false },
        { id: 'documents', done: false },
        { id: 'whatsapp', done: false },
      ],
      currentStep: 'logo',
      status: 'new',
    });

    // Moving on records where the user is, and nothing else.
    const moved = await client.put('/tour', { state: 'active', currentStep: 'companyDetails' });
    expect(moved.body).toMatchObject({ status: 'active', currentStep: 'companyDetails' });
    expect(await done(client)).toEqual({
      logo: false,
      companyDetails: false,
      documents: false,
      whatsapp: false,
    });

    const form = new FormData();
    const png = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#e8590c' } })
      .png()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(png)]), 'logo.png');
    expect((await client.request('PUT', '/company/logo', undefined, { form })).status).toBe(200);
    expect((await done(client)).logo).toBe(true);

    // Details saved but not complete (no bank account) are not done yet.
    await client.put('/company/details', { ...DETAILS, iban: '' });
    expect((await done(client)).companyDetails).toBe(false);
    await client.put('/company/details', DETAILS);
    expect((await done(client)).companyDetails).toBe(true);

    // A file is done once it is ready, not when it was uploaded.
    const division = await client.post('/divisions', { name: 'Heizung' });
    const up = await client.upload(`/divisions/${division.body.id}/files`, [
      { name: 'Preise.docx', content: await makeDocx([{ text: 'Wartung Gasbrennwertkessel 189 Euro' }]) },
    ]);
    await waitForFile(client, up.body.results[0].file.id);
    expect(await done(client)).toEqual({
      logo: true,
      companyDetails: true,
      documents: true,
      whatsapp: false,
    });
    // Until WhatsApp is connected the tour stays open at its last step; the saved connection completes it.
    expect((await client.get('/tour')).body.status).toBe('active');
    const proposal = (await client.get('/whatsapp/connection')).body;
    const connected = await client.request('PUT', '/whatsapp/connection', {
      phoneNumberId: fake.addNumber(),
      businessAccountId: '102290129340398',
      accessToken: fake.accessToken,
      appSecret: 'tour-app-secret-0123456789',
      verifyToken: proposal.verifyToken,
    });
    expect(connected.status).toBe(200);
    expect((await done(client)).whatsapp).toBe(true);
    expect((await client.get('/tour')).body.status).toBe('completed');
  });

  it('is skipped and resumed where the user left it, per user', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    await client.put('/tour', { state: 'active', currentStep: 'documents' });
    const skipped = await client.put('/tour', { state: 'skipped' });
    expect(skipped.body).toMatchObject({ status: 'skipped', currentStep: 'documents' });
    expect((await client.get('/tour')).body.status).toBe('skipped');

    const other = await signedInDataManager(t, { language: 'en' });
    expect((await other.client.get('/tour')).body).toMatchObject({ status: 'new', currentStep: 'logo' });

    const resumed = await client.put('/tour', { state: 'active' });
    expect(resumed.body).toMatchObject({ status: 'active', currentStep: 'documents' });
  });

  it('refuses a step or state it does not know', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const bad = await client.put('/tour', { state: 'done', currentStep: 'next' });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
  });
});
