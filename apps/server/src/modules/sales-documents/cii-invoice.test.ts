import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { ciiInvoiceXml, GUIDELINES, unitCode } from './cii-invoice.ts';
import { COMPANY, issuedInvoice } from './sales-document-fixtures.ts';

const XSD_FOLDER = join(import.meta.dirname, '../../../test/fixtures/factur-x-xsd');
const MAIN_XSD = 'Factur-X_1.07.3_EN16931.xsd';

/** Validates against the official EN 16931 CII schemas (Factur-X 1.07.3), with libxml2 compiled to WebAssembly. */
async function schemaErrors(xml: string): Promise<string[]> {
  const file = (fileName: string) => ({
    fileName,
    contents: readFileSync(join(XSD_FOLDER, fileName), 'utf8'),
  });
  const result = await validateXML({
    xml: [{ fileName: 'invoice.xml', contents: xml }],
    schema: [file(MAIN_XSD)],
    preload: readdirSync(XSD_FOLDER)
      .filter((name) => name.endsWith('.xsd') && name !== MAIN_XSD)
      .map(file),
  });
  return result.errors.map((e) => e.rawMessage);
}

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    removeNSPrefix: true,
    isArray: (name) => name.endsWith('LineItem') || name === 'ApplicableTradeTax',
  }).parse(xml).CrossIndustryInvoice;

describe('the CII e-invoice', () => {
  it('is valid against the EN 16931 schemas, as XRechnung and as Factur-X', async () => {
    for (const variant of ['xrechnung', 'facturX'] as const) {
      const xml = ciiInvoiceXml(issuedInvoice('en', 5), COMPANY, variant);
      expect(await schemaErrors(xml)).toEqual([]);
      // The validator does refuse: without the mandatory currency (BT-5) the same XML is invalid.
      expect(
        await schemaErrors(xml.replace('<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>', '')),
      ).not.toEqual([]);
      expect(parse(xml).ExchangedDocumentContext.GuidelineSpecifiedDocumentContextParameter.ID).toBe(
        GUIDELINES[variant],
      );
    }
  });

  it('carries the stored totals per tax rate, the buyer reference and the seller’s bank account', () => {
    const d = issuedInvoice('de', 5);
    const cii = parse(ciiInvoiceXml(d, COMPANY, 'xrechnung'));
    const settlement = cii.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement;
    expect(d.taxGroups.length).toBe(2);
    expect(
      settlement.ApplicableTradeTax.map((t: Record<string, unknown>) => [
        t.RateApplicablePercent,
        t.BasisAmount,
        t.CalculatedAmount,
      ]),
    ).toEqual(d.taxGroups.map((g) => [g.taxRate, g.netCents / 100, g.taxCents / 100]));
    const sums = settlement.SpecifiedTradeSettlementHeaderMonetarySummation;
    expect(sums.TaxBasisTotalAmount).toBe(d.netCents / 100);
    expect(sums.TaxTotalAmount['#text']).toBe(d.taxCents / 100);
    expect(sums.GrandTotalAmount).toBe(d.grossCents / 100);
    const lines = cii.SupplyChainTradeTransaction.IncludedSupplyChainTradeLineItem;
    expect(
      lines.map(
        (l: any) =>
          l.SpecifiedLineTradeSettlement.SpecifiedTradeSettlementLineMonetarySummation.LineTotalAmount,
      ),
    ).toEqual(d.lines.map((l) => l.netCents / 100));
    // 1.5 h × 64.50 € = 96.75 €, 10 % off: the allowance is the difference to the stored line amount.
    expect(lines[0].SpecifiedLineTradeSettlement.SpecifiedTradeAllowanceCharge.ActualAmount).toBe(9.67);
    const agreement = cii.SupplyChainTradeTransaction.ApplicableHeaderTradeAgreement;
    expect(String(agreement.BuyerReference)).toBe('991-01234-44');
    expect(agreement.SellerTradeParty.SpecifiedTaxRegistration[0].ID['#text']).toBe('DE136695976');
    expect(settlement.SpecifiedTradeSettlementPaymentMeans.PayeePartyCreditorFinancialAccount.IBANID).toBe(
      'DE89370400440532013000',
    );
    expect(cii.ExchangedDocument.TypeCode).toBe(380);
  });

  it('writes a credit note with type 381 and the invoice it corrects', async () => {
    const credit = {
      ...issuedInvoice('de', 2),
      type: 'creditNote' as const,
      number: 'GS-2026-0001',
      sourceNumber: 'RE-2026-0042',
    };
    const xml = ciiInvoiceXml(credit, COMPANY, 'xrechnung');
    expect(await schemaErrors(xml)).toEqual([]);
    const cii = parse(xml);
    expect(cii.ExchangedDocument.TypeCode).toBe(381);
    expect(
      cii.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement.InvoiceReferencedDocument
        .IssuerAssignedID,
    ).toBe('RE-2026-0042');
  });

  it('refuses a draft and an offer', () => {
    expect(() => ciiInvoiceXml({ ...issuedInvoice('de', 1), number: null }, COMPANY, 'xrechnung')).toThrow();
    expect(() => ciiInvoiceXml({ ...issuedInvoice('de', 1), type: 'offer' }, COMPANY, 'xrechnung')).toThrow();
  });

  it('maps the units people type to UN/ECE codes', () => {
    expect(['h', 'Stk', 'km', 'm²', 'pauschal', 'Karton'].map(unitCode)).toEqual([
      'HUR',
      'H87',
      'KMT',
      'MTK',
      'LS',
      'C62',
    ]);
  });
});
