import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

describe('POST /employees/import', () => {
  it('adds the good rows and reports each rejected row with its reasons', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    await client.post('/divisions', { name: 'Heizung' });
    await client.post('/divisions', { name: 'Büro' });
    const taken = `vorhanden-${Date.now()}@firma.example`;
    await client.post('/employees', {
      email: taken,
      firstName: 'A',
      lastName: 'B',
      language: 'de',
      divisionIds: [],
    });
    const csv = [
      'E-Mail;Vorname;Nachname;Telefon;Sprache;Bereiche',
      `jana-${Date.now()}@firma.example;Jana;Öztürk;0151 11111110;de;Heizung|Büro`,
      'kein-email;Paul;Peters;;de;',
      `${taken};Doppelt;Da;;de;`,
      `lea-${Date.now()}@firma.example;Lea;Lang;;en;Keller`,
      `tom-${Date.now()}@firma.example;Tom;Tal;;;`,
    ].join('\n');
    const res = await client.post('/employees/import', { csv });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(2);
    const byRow = Object.fromEntries(res.body.rejected.map((r: { row: number }) => [r.row, r]));
    expect(Object.keys(byRow).map(Number)).toEqual([3, 4, 5]);
    expect(byRow[3].errors[0]).toMatchObject({ field: 'email', message: 'Email must be valid!' });
    expect(byRow[4].errors[0].code).toBe('errors.EMAIL_TAKEN');
    expect(byRow[5].errors[0]).toMatchObject({
      field: 'divisions',
      message: 'There is no division "Keller".',
    });
    const jana = (await client.get('/employees?q=jana')).body.items[0];
    expect(jana.divisions.map((d: { name: string }) => d.name)).toEqual(['Büro', 'Heizung']);
    // A national number is read in the country of the data manager (no company details yet): stored in E.164.
    expect(jana.phone).toBe('+4915111111110');
  });

  it('reads back a file as the table exports it: semicolons, a BOM, headers in the reader’s language', async () => {
    const { client } = await signedInDataManager(t, { language: 'de' });
    await client.post('/divisions', { name: 'Heizung' });
    await client.post('/divisions', { name: 'Büro' });
    const stamp = Date.now();
    const german = [
      '\uFEFFVorname;Nachname;E-Mail;WhatsApp-Telefonnummer;Sprache;Bereiche;Status',
      `Jana;Öztürk;de-${stamp}@firma.example;+4915111111120;de;Büro | Heizung;Aktiv`,
    ].join('\r\n');
    const arabic = [
      '\uFEFFالاسم الأول;اسم العائلة;البريد الإلكتروني;رقم هاتف WhatsApp;اللغة;الأقسام;الحالة',
      `Samir;Haddad;ar-${stamp}@firma.example;+4915111111121;ar;Heizung;نشط`,
    ].join('\r\n');
    for (const csv of [german, arabic])
      expect((await client.post('/employees/import', { csv })).body).toEqual({ created: 1, rejected: [] });
    const jana = (await client.get(`/employees?q=de-${stamp}`)).body.items[0];
    expect(jana).toMatchObject({
      firstName: 'Jana',
      lastName: 'Öztürk',
      phone: '+4915111111120',
      language: 'de',
    });
    expect(jana.divisions.map((d: { name: string }) => d.name)).toEqual(['Büro', 'Heizung']);
    const samir = (await client.get(`/employees?q=ar-${stamp}`)).body.items[0];
    expect(samir).toMatchObject({ firstName: 'Samir', phone: '+4915111111121', language: 'ar' });
  });

  it('refuses a file without the required header, in the caller language', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const res = await client.post('/employees/import', { csv: 'name,mail\nx,y' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields[0].code).toBe('validation.csvHeader');
  });

  it('never touches another company: division names resolve only within the own company', async () => {
    const other = await signedInDataManager(t);
    await other.client.post('/divisions', { name: 'Nur-bei-anderen' });
    const { client } = await signedInDataManager(t);
    const res = await client.post('/employees/import', {
      csv: `email,firstName,lastName,divisions\nx-${Date.now()}@firma.example,X,Y,Nur-bei-anderen`,
    });
    expect(res.body.created).toBe(0);
    expect(res.body.rejected[0].errors[0].code).toBe('validation.unknownDivision');
  });
});
