import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeChatCall, type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { COMPANY, customerOf } from './sales-document-fixtures.ts';

// The fake provider listens on 127.0.0.1, which the outbound policy refuses unless allowed.
let t: TestServer;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
  t = await startTestServer({
    smtp: false,
    env: { CHAT_PROVIDER_TIMEOUT_SECONDS: '2', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' },
  });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

const PRICE_LIST = [
  { heading: 'Preisliste Heizung 2026' },
  { text: 'Wartung Gasbrennwertkessel ........ 149,00 €' },
  { text: 'Anfahrt je km 0,85 €' },
  { text: 'Fliesen verlegen je m² 45,00 €' },
];
const KEY = 'sk-test-0123456789abcdef';

/** A company with the price list, a customer, and the fake model as its default provider. */
async function companyWithModel() {
  const dm = await companyWithFile(t, PRICE_LIST, 'Preise', { language: 'de' });
  await dm.client.put('/company/details', { ...COMPANY, standardTaxRate: 19 });
  const saved = await dm.client.request('PUT', '/ai-providers/openai', {
    baseUrl: llm.url,
    apiKey: KEY,
    model: 'gpt-4o-mini',
    isDefault: true,
  });
  expect(saved.status).toBe(200);
  return { ...dm, customerId: await customerOf(dm.client) };
}

/** The number the prompt gave the row that starts with `item`. */
function rowNumber(call: FakeChatCall, item: string): number {
  const found = new RegExp(`^\\[(\\d+)\\] ${item}`, 'm').exec(call.lastUserMessage);
  if (!found) throw new Error(`${item} is not among the rows: ${call.lastUserMessage}`);
  return Number(found[1]);
}

const draft = (dm: Awaited<ReturnType<typeof companyWithModel>>, description: string) =>
  dm.client.post('/handwerk/documents/drafted-offers', {
    customerId: dm.customerId,
    language: 'de',
    description,
  });

describe('drafting an offer with the company’s model', () => {
  it('lets the model choose the rows and quantities, while item, price and citation stay the price list’s', async () => {
    const dm = await companyWithModel();
    llm.setScript({
      text: (call) =>
        `Gern:\n\`\`\`json\n${JSON.stringify({
          lines: [
            { row: rowNumber(call, 'Wartung Gasbrennwertkessel'), quantity: 1 },
            { row: rowNumber(call, 'Anfahrt je km'), quantity: 25 },
            { row: 99, quantity: 3 },
            { row: rowNumber(call, 'Anfahrt je km'), quantity: 2 },
          ],
        })}\n\`\`\``,
    });
    // No word of this job shares a stem with the rows: read by hand, it would find nothing.
    const res = await draft(dm, 'Kesseldienst im Einfamilienhaus, 25 km Fahrt');
    expect(res.status).toBe(201);
    expect(
      res.body.lines.map((l: Record<string, unknown>) => [
        l.description,
        l.quantity,
        l.unit,
        l.unitPriceCents,
      ]),
    ).toEqual([
      ['Wartung Gasbrennwertkessel', 1, '', 14900],
      ['Anfahrt', 25, 'km', 85],
    ]);
    for (const line of res.body.lines) expect(line.source).toMatchObject({ fileId: dm.file.id });
    expect(res.body.lines[1].source.excerpt).toBe('Anfahrt je km 0,85 €');

    const call = llm.requests.find((r) => r.route === 'chat')!;
    expect(call.authorization).toBe(`Bearer ${KEY}`);
    expect(call.body.model).toBe('gpt-4o-mini');
    const prompt = JSON.stringify(call.body.messages);
    expect(prompt).toContain('Job: Kesseldienst im Einfamilienhaus, 25 km Fahrt');
    expect(prompt).toContain('Fliesen verlegen je m² 45,00 € (unit: m²)');
  });

  it('reads the rows by hand when the model fails or answers no JSON', async () => {
    const dm = await companyWithModel();
    llm.enqueue({ status: 500, errorMessage: 'overloaded' }, { text: 'Das kann ich nicht sagen.' });
    for (let i = 0; i < 2; i++) {
      const res = await draft(dm, 'Heizungswartung Gasbrennwertkessel, Einfamilienhaus, Anfahrt 25 km');
      expect(res.status).toBe(201);
      expect(res.body.lines.map((l: Record<string, unknown>) => [l.description, l.quantity])).toEqual([
        ['Wartung Gasbrennwertkessel', 1],
        ['Anfahrt', 25],
      ]);
    }
    expect(llm.requests.filter((r) => r.route === 'chat')).toHaveLength(2);
  });

  it('drafts nothing when the model finds that the job needs none of the rows', async () => {
    const dm = await companyWithModel();
    llm.setScript({ text: '{"lines":[]}' });
    const res = await draft(dm, 'Dachrinne reinigen, Gasbrennwertkessel nicht betroffen');
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('NO_PRICED_ITEMS_FOUND');
    expect((await dm.client.get('/handwerk/documents')).body.total).toBe(0);
  });
});
