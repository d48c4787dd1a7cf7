import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const valid = {
  name: 'Müller Haustechnik GmbH',
  website: 'https://mueller-haustechnik.example',
  street: 'Hauptstraße 12',
  postalCode: '10115',
  city: 'Berlin',
  country: 'de',
  phone: '+49 30 1234567',
  email: 'Buero@Mueller-Haustechnik.example',
  vatId: 'de 136 695 976',
  taxNumber: '27/123/45678',
  standardTaxRate: 19,
  registerNumber: 'HRB 12345 B',
  registryCourt: 'Amtsgericht Charlottenburg',
  managingDirector: 'Jörg Müller',
  iban: 'de89 3704 0044 0532 0130 00',
  bic: 'cobadeffxxx',
};

describe('company details', () => {
  it('start from the company’s name and the data manager’s country, and are saved in their written form', async () => {
    const dm = await signedInDataManager(t, { country: 'AT', companyName: 'Erstname KG' });
    const first = await dm.client.get('/company/details');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'Erstname KG',
      country: 'AT',
      standardTaxRate: 19,
      iban: '',
      complete: false,
      updatedAt: null,
    });

    const saved = await dm.client.put('/company/details', valid);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      name: 'Müller Haustechnik GmbH',
      country: 'DE',
      email: 'buero@mueller-haustechnik.example',
      vatId: 'DE136695976',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      complete: true,
    });
    expect((await dm.client.get('/company/details')).body).toEqual(saved.body);
    // The company's name is the one the rest of the product shows.
    expect((await dm.client.get('/auth/me')).body.userData.companyName).toBe('Müller Haustechnik GmbH');

    const cleared = await dm.client.put('/company/details', {
      ...valid,
      iban: '',
      bic: '',
      standardTaxRate: 7.5,
    });
    expect(cleared.body).toMatchObject({ iban: '', bic: '', standardTaxRate: 7.5, complete: false });
  });

  it('are complete only with what an e-invoice needs of the seller, and name what is missing', async () => {
    const dm = await signedInDataManager(t);
    // A tax number alone identifies no seller in an e-invoice (BR-CO-26), and without e-mail and phone the
    // XRechnung has no electronic address and contact (PEPPOL-EN16931-R020, BR-DE-6, BR-DE-7).
    const taxNumberOnly = await dm.client.put('/company/details', {
      ...valid,
      vatId: '',
      registerNumber: '',
      email: '',
      phone: '',
    });
    expect(taxNumberOnly.body).toMatchObject({ complete: false, missing: ['legalId', 'email', 'phone'] });
    // A register entry is the seller's legal identifier (BT-30) when there is no VAT id.
    const registered = await dm.client.put('/company/details', { ...valid, vatId: '' });
    expect(registered.body).toMatchObject({ complete: true, missing: [], smallBusiness: false });
    const nothing = await dm.client.put('/company/details', {
      ...valid,
      street: '',
      vatId: '',
      taxNumber: '',
      registerNumber: '',
      iban: '',
      bic: '',
      smallBusiness: true,
    });
    expect(nothing.body).toMatchObject({
      missing: ['address', 'taxId', 'legalId', 'iban'],
      smallBusiness: true,
    });
  });

  it('take a website as people write it, without https://, and keep it with its scheme', async () => {
    const dm = await signedInDataManager(t, { language: 'de' });
    for (const [typed, kept] of [
      ['www.mueller-haustechnik.de', 'https://www.mueller-haustechnik.de'],
      ['mueller-haustechnik.de/kontakt', 'https://mueller-haustechnik.de/kontakt'],
      ['http://mueller-haustechnik.de', 'http://mueller-haustechnik.de'],
    ]) {
      const saved = await dm.client.put('/company/details', { ...valid, website: typed });
      expect(saved.status).toBe(200);
      expect(saved.body.website).toBe(kept);
    }
  });

  it('refuses each invalid field with its own message and saves nothing', async () => {
    const dm = await signedInDataManager(t, { language: 'en' });
    const res = await dm.client.put('/company/details', {
      ...valid,
      iban: 'DE89 3704 0044 0532 0130 01',
      bic: 'COBA',
      vatId: 'DE123',
      postalCode: '1011',
      website: 'mueller haustechnik',
      email: 'kein-at',
      standardTaxRate: 120,
      name: ' ',
    });
    expect(res.status).toBe(422);
    const fields = Object.fromEntries(
      res.body.error.details.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(fields).toEqual({
      iban: 'Please enter a valid IBAN.',
      bic: 'Please enter a valid BIC (8 or 11 characters).',
      vatId: 'Please enter a valid VAT ID with its country code, e.g. DE123456789.',
      postalCode: 'This postal code does not exist in the chosen country.',
      website: 'Please enter a web address, e.g. www.example.de.',
      email: 'Email must be valid!',
      standardTaxRate: 'The value must be at most 100.',
      name: 'This field is required',
    });
    expect((await dm.client.get('/company/details')).body.updatedAt).toBeNull();
  });

  it('belong to one company: another company’s data manager sees only their own, an employee none', async () => {
    const a = await signedInDataManager(t);
    await a.client.put('/company/details', valid);
    const b = await signedInDataManager(t, { companyName: 'Andere GmbH' });
    expect((await b.client.get('/company/details')).body).toMatchObject({ name: 'Andere GmbH', iban: '' });
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/company/details')).status).toBe(403);
    expect((await employee.client.put('/company/details', valid)).status).toBe(403);
    expect((await t.client().get('/company/details')).status).toBe(401);
  });
});
