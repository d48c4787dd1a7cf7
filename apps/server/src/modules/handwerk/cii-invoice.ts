import { centsToDecimal, divideRounded, type SalesDocument } from '@werkwissen/shared';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { StoredParty } from '../../db/schema/index.ts';

/** The guideline (BT-24) of each variant: XRechnung 3.0 (a CIUS of EN 16931) or Factur-X's EN 16931 profile. */
export const GUIDELINES = {
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  facturX: 'urn:cen.eu:en16931:2017',
} as const;
export type CiiVariant = keyof typeof GUIDELINES;

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** UN/ECE Recommendation 20 codes for the units people type; anything else is "one" (C62). */
const UNIT_CODES: Record<string, string> = {
  h: 'HUR',
  std: 'HUR',
  stunde: 'HUR',
  stunden: 'HUR',
  min: 'MIN',
  tag: 'DAY',
  tage: 'DAY',
  d: 'DAY',
  stk: 'H87',
  'stk.': 'H87',
  stück: 'H87',
  pcs: 'H87',
  km: 'KMT',
  m: 'MTR',
  'm²': 'MTK',
  m2: 'MTK',
  'm³': 'MTQ',
  m3: 'MTQ',
  kg: 'KGM',
  t: 'TNE',
  l: 'LTR',
  pauschal: 'LS',
  psch: 'LS',
  'psch.': 'LS',
};

export function unitCode(unit: string): string {
  return UNIT_CODES[unit.trim().toLowerCase()] ?? 'C62';
}

/** A percentage or quantity as an XSD decimal ("19", "7.5", "2.125"). */
function decimal(n: number): string {
  return String(Number(n.toFixed(3)));
}

function date102(iso: string): string {
  return iso.replaceAll('-', '');
}

/** EN 16931 VAT category: standard rated (S), or zero rated (Z) for 0 %. */
function category(taxRate: number): string {
  return taxRate > 0 ? 'S' : 'Z';
}

function text(parent: XMLBuilder, name: string, value: string, attributes?: Record<string, string>): void {
  if (value) parent.ele(name, attributes).txt(value);
}

function dateElement(parent: XMLBuilder, name: string, iso: string): void {
  parent.ele(name).ele('udt:DateTimeString', { format: '102' }).txt(date102(iso));
}

function party(parent: XMLBuilder, name: string, p: StoredParty, contact: boolean): void {
  const node = parent.ele(name);
  node.ele('ram:Name').txt(String(p.name));
  if (contact) {
    const person = node.ele('ram:DefinedTradeContact');
    person.ele('ram:PersonName').txt(String(p.managingDirector || p.name));
    if (p.phone)
      person.ele('ram:TelephoneUniversalCommunication').ele('ram:CompleteNumber').txt(String(p.phone));
    if (p.email) person.ele('ram:EmailURIUniversalCommunication').ele('ram:URIID').txt(String(p.email));
  }
  const address = node.ele('ram:PostalTradeAddress');
  text(address, 'ram:PostcodeCode', String(p.postalCode));
  text(address, 'ram:LineOne', String(p.street));
  text(address, 'ram:CityName', String(p.city));
  address.ele('ram:CountryID').txt(String(p.country));
  // BT-34 / BT-49: the electronic address XRechnung asks for; an e-mail address (scheme EM).
  if (p.email)
    node.ele('ram:URIUniversalCommunication').ele('ram:URIID', { schemeID: 'EM' }).txt(String(p.email));
  if (p.vatId)
    node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'VA' }).txt(String(p.vatId));
  if (p.taxNumber)
    node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'FC' }).txt(String(p.taxNumber));
}

function lineItem(parent: XMLBuilder, line: SalesDocument['lines'][number], index: number): void {
  const item = parent.ele('ram:IncludedSupplyChainTradeLineItem');
  item
    .ele('ram:AssociatedDocumentLineDocument')
    .ele('ram:LineID')
    .txt(String(index + 1));
  item.ele('ram:SpecifiedTradeProduct').ele('ram:Name').txt(line.description);
  item
    .ele('ram:SpecifiedLineTradeAgreement')
    .ele('ram:NetPriceProductTradePrice')
    .ele('ram:ChargeAmount')
    .txt(centsToDecimal(line.unitPriceCents));
  item
    .ele('ram:SpecifiedLineTradeDelivery')
    .ele('ram:BilledQuantity', { unitCode: unitCode(line.unit) })
    .txt(decimal(line.quantity));
  const settlement = item.ele('ram:SpecifiedLineTradeSettlement');
  const tax = settlement.ele('ram:ApplicableTradeTax');
  tax.ele('ram:TypeCode').txt('VAT');
  tax.ele('ram:CategoryCode').txt(category(line.taxRate));
  tax.ele('ram:RateApplicablePercent').txt(decimal(line.taxRate));
  if (line.discountPercent > 0) {
    // The line's discount (BG-27): quantity × price less the stored (rounded) line net amount.
    const allowance = settlement.ele('ram:SpecifiedTradeAllowanceCharge');
    allowance.ele('ram:ChargeIndicator').ele('udt:Indicator').txt('false');
    allowance.ele('ram:CalculationPercent').txt(decimal(line.discountPercent));
    allowance.ele('ram:ActualAmount').txt(centsToDecimal(undiscountedCents(line) - line.netCents));
    allowance.ele('ram:Reason').txt('Discount');
  }
  settlement
    .ele('ram:SpecifiedTradeSettlementLineMonetarySummation')
    .ele('ram:LineTotalAmount')
    .txt(centsToDecimal(line.netCents));
}

/** Quantity × unit price in cents, rounded half away from zero (as the shared totals round). */
function undiscountedCents(line: SalesDocument['lines'][number]): number {
  return divideRounded(BigInt(Math.round(line.quantity * 1000)) * BigInt(line.unitPriceCents), 1000n);
}

/**
 * An issued invoice or credit note as UN/CEFACT Cross Industry Invoice (D16B, EN 16931): XRechnung 3.0 or the
 * Factur-X EN 16931 profile. Every amount is the stored one (lines, tax per rate, totals); nothing is recomputed in
 * floating point.
 */
export function ciiInvoiceXml(d: SalesDocument, seller: StoredParty, variant: CiiVariant): string {
  if (!d.number || (d.type !== 'invoice' && d.type !== 'creditNote'))
    throw new Error('only an issued invoice or credit note has an e-invoice');
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('rsm:CrossIndustryInvoice', NS);

  const context = root.ele('rsm:ExchangedDocumentContext');
  context
    .ele('ram:BusinessProcessSpecifiedDocumentContextParameter')
    .ele('ram:ID')
    .txt('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
  context.ele('ram:GuidelineSpecifiedDocumentContextParameter').ele('ram:ID').txt(GUIDELINES[variant]);

  const header = root.ele('rsm:ExchangedDocument');
  header.ele('ram:ID').txt(d.number);
  header.ele('ram:TypeCode').txt(d.type === 'creditNote' ? '381' : '380');
  dateElement(header, 'ram:IssueDateTime', d.issueDate);
  if (d.notes) header.ele('ram:IncludedNote').ele('ram:Content').txt(d.notes);

  const transaction = root.ele('rsm:SupplyChainTradeTransaction');
  for (const [i, line] of d.lines.entries()) lineItem(transaction, line, i);

  const agreement = transaction.ele('ram:ApplicableHeaderTradeAgreement');
  // BT-10: the buyer reference (Leitweg-ID); XRechnung requires it, so without one the document number stands in.
  agreement.ele('ram:BuyerReference').txt(d.buyer.buyerReference || d.number);
  party(agreement, 'ram:SellerTradeParty', seller, true);
  party(agreement, 'ram:BuyerTradeParty', { ...d.buyer }, false);

  transaction.ele('ram:ApplicableHeaderTradeDelivery');

  const settlement = transaction.ele('ram:ApplicableHeaderTradeSettlement');
  settlement.ele('ram:PaymentReference').txt(d.number);
  settlement.ele('ram:InvoiceCurrencyCode').txt('EUR');
  if (seller.iban) {
    const means = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans');
    means.ele('ram:TypeCode').txt('58');
    means.ele('ram:PayeePartyCreditorFinancialAccount').ele('ram:IBANID').txt(String(seller.iban));
    if (seller.bic)
      means.ele('ram:PayeeSpecifiedCreditorFinancialInstitution').ele('ram:BICID').txt(String(seller.bic));
  }
  for (const group of d.taxGroups) {
    const tax = settlement.ele('ram:ApplicableTradeTax');
    tax.ele('ram:CalculatedAmount').txt(centsToDecimal(group.taxCents));
    tax.ele('ram:TypeCode').txt('VAT');
    tax.ele('ram:BasisAmount').txt(centsToDecimal(group.netCents));
    tax.ele('ram:CategoryCode').txt(category(group.taxRate));
    tax.ele('ram:RateApplicablePercent').txt(decimal(group.taxRate));
  }
  if (d.dueDate)
    dateElement(settlement.ele('ram:SpecifiedTradePaymentTerms'), 'ram:DueDateDateTime', d.dueDate);
  const sums = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  sums.ele('ram:LineTotalAmount').txt(centsToDecimal(d.netCents));
  sums.ele('ram:TaxBasisTotalAmount').txt(centsToDecimal(d.netCents));
  sums.ele('ram:TaxTotalAmount', { currencyID: 'EUR' }).txt(centsToDecimal(d.taxCents));
  sums.ele('ram:GrandTotalAmount').txt(centsToDecimal(d.grossCents));
  sums.ele('ram:DuePayableAmount').txt(centsToDecimal(d.grossCents));
  if (d.type === 'creditNote' && d.sourceNumber)
    settlement.ele('ram:InvoiceReferencedDocument').ele('ram:IssuerAssignedID').txt(d.sourceNumber);

  return root.end({ prettyPrint: true });
}
