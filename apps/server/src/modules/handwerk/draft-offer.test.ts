import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { COMPANY, customerOf } from './handwerk-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const PRICE_LIST = [
  { heading: 'Preisliste Heizung 2026' },
  { text: 'Wartung Gasbrennwertkessel ........ 149,00 €' },
  { text: 'Anfahrt je km 0,85 €' },
  { text: 'Fliesen verlegen je m² 45,00 €' },
  { heading: 'Hinweise' },
  { text: 'Alle Preise zuzüglich der gesetzlichen Umsatzsteuer. Telefon 030 1234567.' },
];

describe('drafting an offer from the company’s price lists', () => {
  it('makes lines with the list’s prices and the job’s quantities, each citing the passage it came from', async () => {
    const dm = await companyWithFile(t, PRICE_LIST, 'Preise', { language: 'de' });
    await dm.client.put('/company/details', { ...COMPANY, standardTaxRate: 19 });
    const customerId = await customerOf(dm.client);
    const res = await dm.client.post('/handwerk/documents/drafted-offers', {
      customerId,
      language: 'de',
      description: 'Heizungswartung Gasbrennwertkessel, Einfamilienhaus, Anfahrt 25 km',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'offer', status: 'draft', language: 'de' });
    const lines = res.body.lines;
    expect(lines.map((l: { description: string }) => l.description)).toEqual([
      'Wartung Gasbrennwertkessel',
      'Anfahrt',
    ]);
    expect(lines[0]).toMatchObject({ quantity: 1, unitPriceCents: 14900, taxRate: 19, netCents: 14900 });
    expect(lines[1]).toMatchObject({ quantity: 25, unit: 'km', unitPriceCents: 85, netCents: 2125 });
    // Each line cites the price list's passage that holds its row.
    const passages = await t.server.ctx.db.execute<{ id: string; text: string }>(
      `select id, text from passages where file_id = '${dm.file.id}'`,
    );
    for (const line of lines) {
      expect(line.source).toMatchObject({ fileId: dm.file.id, fileName: 'Preise.docx' });
      const passage = passages.rows.find((p) => p.id === line.source.passageId);
      expect(passage?.text).toContain(line.source.excerpt);
    }
    expect(res.body.grossCents).toBe(17025 + 3235);

    // Saved back from the editor, the citations stay; one that names no passage of the company's, or quotes what
    // the passage does not say, is dropped rather than stored as if the price list said it.
    type Line = {
      description: string;
      quantity: number;
      unit: string;
      unitPriceCents: number;
      source: unknown;
    };
    const edited = (lines as Line[]).map(({ description, quantity, unit, unitPriceCents, source }) => ({
      description,
      quantity,
      unit,
      unitPriceCents,
      discountPercent: 0,
      taxRate: 19,
      source,
    }));
    const cited = lines[0].source;
    const forged = [
      { ...edited[0]!, source: { ...cited, passageId: '00000000-0000-4000-8000-000000000000' } },
      { ...edited[0]!, source: { ...cited, excerpt: 'Wartung Gasbrennwertkessel 9,00 €' } },
    ];
    const saved = await dm.client.put(`/handwerk/documents/${res.body.id}`, {
      customerId,
      language: 'de',
      issueDate: null,
      dueDate: null,
      title: '',
      notes: '',
      lines: [...edited, ...forged],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.lines.map((l: { source: unknown }) => l.source)).toEqual([
      lines[0].source,
      lines[1].source,
      null,
      null,
    ]);
  });

  it('says so when the files hold no priced item for the job, and drafts nothing', async () => {
    const dm = await companyWithFile(t, PRICE_LIST, 'Preise', { language: 'de' });
    const customerId = await customerOf(dm.client);
    const res = await dm.client.post('/handwerk/documents/drafted-offers', {
      customerId,
      language: 'de',
      description: 'Dachrinne reinigen',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('NO_PRICED_ITEMS_FOUND');
    expect((await dm.client.get('/handwerk/documents')).body.total).toBe(0);
  });
});
