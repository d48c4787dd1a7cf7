import { centsToDecimal, divideRounded, type Language, type SalesDocument } from '@werkwissen/shared';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { StoredParty } from '../../db/schema/index.ts';
import { type DocumentFormat, documentFormat } from './document-format.ts';
import { cashDiscountTerms, exemptionReason, legalNotices, paymentTerms } from './document-texts.ts';

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

/**
 * The EN 16931 VAT category (UNTDID 5305) of a document's lines: AE for the reverse charge (§ 13b UStG), E for a
 * small business (§ 19 UStG, exempt since 2025), else S (standard rated) or Z (zero rated) by the rate.
 */
function category(d: SalesDocument, taxRate: number): string {
  if (d.taxTreatment === 'reverseCharge') return 'AE';
  if (d.taxTreatment === 'smallBusiness') return 'E';
  return taxRate > 0 ? 'S' : 'Z';
}

/** UNTDID 1001 (BT-3): 326 partial invoice for a down payment, 381 credit note for a cancellation, else 380. */
function typeCode(d: SalesDocument): string {
  if (d.type === 'creditNote') return '381';
  return d.invoiceKind === 'downPayment' ? '326' : '380';
}

function text(parent: XMLBuilder, name: string, value: string, attributes?: Record<string, string>): void {
  if (value) parent.ele(name, attributes).txt(value);
}

function dateElement(parent: XMLBuilder, name: string, iso: string): void {
  parent.ele(name).ele('udt:DateTimeString', { format: '102' }).txt(date102(iso));
}

function address(node: XMLBuilder, p: StoredParty): void {
  const address = node.ele('ram:PostalTradeAddress');
  text(address, 'ram:PostcodeCode', String(p.postalCode));
  text(address, 'ram:LineOne', String(p.street));
  text(address, 'ram:CityName', String(p.city));
  address.ele('ram:CountryID').txt(String(p.country));
}

/** BT-34 / BT-49: the electronic address XRechnung asks for; an e-mail address (scheme EM). */
function electronicAddress(node: XMLBuilder, email: string): void {
  if (email) node.ele('ram:URIUniversalCommunication').ele('ram:URIID', { schemeID: 'EM' }).txt(email);
}

function taxRegistrations(node: XMLBuilder, p: StoredParty): void {
  if (p.vatId)
    node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'VA' }).txt(String(p.vatId));
  if (p.taxNumber)
    node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'FC' }).txt(String(p.taxNumber));
}

/**
 * The seller (BG-4): name, the register court as additional legal information (BT-33), the register number as legal
 * registration identifier (BT-30, which identifies a seller without VAT id: BR-CO-26), the contact (BG-6: name,
 * phone, e-mail; BR-DE-5/6/7), address, electronic address and tax registrations (VAT id BT-31, tax number BT-32).
 */
function seller(parent: XMLBuilder, p: StoredParty): void {
  const node = parent.ele('ram:SellerTradeParty');
  node.ele('ram:Name').txt(String(p.name));
  text(node, 'ram:Description', String(p.registryCourt ?? ''));
  if (p.registerNumber)
    node.ele('ram:SpecifiedLegalOrganization').ele('ram:ID').txt(String(p.registerNumber));
  const contact = node.ele('ram:DefinedTradeContact');
  contact.ele('ram:PersonName').txt(String(p.managingDirector || p.name));
  if (p.phone)
    contact.ele('ram:TelephoneUniversalCommunication').ele('ram:CompleteNumber').txt(String(p.phone));
  if (p.email) contact.ele('ram:EmailURIUniversalCommunication').ele('ram:URIID').txt(String(p.email));
  address(node, p);
  electronicAddress(node, String(p.email ?? ''));
  taxRegistrations(node, p);
}

function buyer(parent: XMLBuilder, b: SalesDocument['buyer']): void {
  const node = parent.ele('ram:BuyerTradeParty');
  node.ele('ram:Name').txt(b.name);
  address(node, b);
  electronicAddress(node, b.email);
  taxRegistrations(node, b);
}

/** Quantity × unit price in cents, rounded half away from zero (as the shared totals round). */
function undiscountedCents(line: SalesDocument['lines'][number]): number {
  return divideRounded(BigInt(Math.round(line.quantity * 1000)) * BigInt(line.unitPriceCents), 1000n);
}

function lineItem(
  parent: XMLBuilder,
  d: SalesDocument,
  line: SalesDocument['lines'][number],
  index: number,
  f: DocumentFormat,
): void {
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
  tax.ele('ram:CategoryCode').txt(category(d, line.taxRate));
  tax.ele('ram:RateApplicablePercent').txt(decimal(line.taxRate));
  if (line.discountPercent > 0) {
    // The line's discount (BG-27): its base is quantity × price (BT-137, which a percentage needs: PEPPOL-EN16931-
    // R041), its amount the difference to the stored (rounded) line net amount.
    const base = undiscountedCents(line);
    const allowance = settlement.ele('ram:SpecifiedTradeAllowanceCharge');
    allowance.ele('ram:ChargeIndicator').ele('udt:Indicator').txt('false');
    allowance.ele('ram:CalculationPercent').txt(decimal(line.discountPercent));
    allowance.ele('ram:BasisAmount').txt(centsToDecimal(base));
    allowance.ele('ram:ActualAmount').txt(centsToDecimal(base - line.netCents));
    allowance.ele('ram:Reason').txt(f.t('discount'));
  }
  settlement
    .ele('ram:SpecifiedTradeSettlementLineMonetarySummation')
    .ele('ram:LineTotalAmount')
    .txt(centsToDecimal(line.netCents));
}

/** One XRechnung cash discount line (BR-DE-18): "#SKONTO#TAGE=14#PROZENT=2.00#". */
function skontoLine(days: number, percent: number): string {
  return `#SKONTO#TAGE=${days}#PROZENT=${percent.toFixed(2)}#`;
}

/**
 * The payment terms (BT-20): the sentences of the PDF, and the cash discount in the form XRechnung reads (a line of
 * its own, the text ending with a line break: BR-DE-18). A credit note says how it is settled, so that an amount due
 * always has terms (BR-CO-25).
 */
function paymentTermsNode(settlement: XMLBuilder, d: SalesDocument, f: DocumentFormat): void {
  const sentences = paymentTerms(d, f);
  const discount = cashDiscountTerms(d);
  const description = discount
    ? `${sentences.join(' ')}\n${skontoLine(discount.days, discount.percent)}\n`
    : sentences.join(' ');
  if (!description && !d.dueDate) return;
  const terms = settlement.ele('ram:SpecifiedTradePaymentTerms');
  text(terms, 'ram:Description', description);
  if (d.dueDate && d.type === 'invoice') dateElement(terms, 'ram:DueDateDateTime', d.dueDate);
}

/** The invoice notes (BT-22): the user's notes, the legal notices, and a final invoice's deducted down payments. */
function notes(header: XMLBuilder, d: SalesDocument, f: DocumentFormat): void {
  const deductions = d.deductions.map((x) =>
    f.t('deduction', {
      number: x.number,
      date: f.date(x.issueDate),
      net: f.money(x.netCents),
      tax: f.money(x.taxCents),
      gross: f.money(x.grossCents),
    }),
  );
  const all = [
    d.notes,
    ...legalNotices(d, f),
    ...(deductions.length ? [f.t('deductions'), ...deductions] : []),
  ];
  for (const note of all.filter(Boolean)) header.ele('ram:IncludedNote').ele('ram:Content').txt(note);
}

/**
 * An issued invoice or credit note as UN/CEFACT Cross Industry Invoice (D16B, EN 16931): XRechnung 3.0 or the
 * Factur-X EN 16931 profile. Every amount is the stored one (lines, tax per rate, totals, the down payments a final
 * invoice deducts); nothing is recomputed in floating point. Texts are in the document's language.
 */
export function ciiInvoiceXml(d: SalesDocument, seller_: StoredParty, variant: CiiVariant): string {
  if (!d.number || (d.type !== 'invoice' && d.type !== 'creditNote'))
    throw new Error('only an issued invoice or credit note has an e-invoice');
  const f = documentFormat(d.language as Language);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('rsm:CrossIndustryInvoice', NS);

  const context = root.ele('rsm:ExchangedDocumentContext');
  context
    .ele('ram:BusinessProcessSpecifiedDocumentContextParameter')
    .ele('ram:ID')
    .txt('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
  context.ele('ram:GuidelineSpecifiedDocumentContextParameter').ele('ram:ID').txt(GUIDELINES[variant]);

  const header = root.ele('rsm:ExchangedDocument');
  header.ele('ram:ID').txt(d.number);
  header.ele('ram:TypeCode').txt(typeCode(d));
  dateElement(header, 'ram:IssueDateTime', d.issueDate);
  notes(header, d, f);

  const transaction = root.ele('rsm:SupplyChainTradeTransaction');
  for (const [i, line] of d.lines.entries()) lineItem(transaction, d, line, i, f);

  const agreement = transaction.ele('ram:ApplicableHeaderTradeAgreement');
  // BT-10: the buyer reference (Leitweg-ID); XRechnung requires it, so without one the document number stands in.
  agreement.ele('ram:BuyerReference').txt(d.buyer.buyerReference || d.number);
  seller(agreement, seller_);
  buyer(agreement, d.buyer);

  // BT-72: the delivery or service date; a period is BG-14 below.
  const delivery = transaction.ele('ram:ApplicableHeaderTradeDelivery');
  const period = d.serviceDate && d.serviceEndDate && d.serviceEndDate !== d.serviceDate;
  if (d.serviceDate && !period)
    dateElement(delivery.ele('ram:ActualDeliverySupplyChainEvent'), 'ram:OccurrenceDateTime', d.serviceDate);

  const settlement = transaction.ele('ram:ApplicableHeaderTradeSettlement');
  settlement.ele('ram:PaymentReference').txt(d.number);
  settlement.ele('ram:InvoiceCurrencyCode').txt('EUR');
  if (seller_.iban) {
    const means = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans');
    means.ele('ram:TypeCode').txt('58');
    means.ele('ram:PayeePartyCreditorFinancialAccount').ele('ram:IBANID').txt(String(seller_.iban));
    if (seller_.bic)
      means.ele('ram:PayeeSpecifiedCreditorFinancialInstitution').ele('ram:BICID').txt(String(seller_.bic));
  }
  const reason = exemptionReason(d, f);
  for (const group of d.taxGroups) {
    const code = category(d, group.taxRate);
    const tax = settlement.ele('ram:ApplicableTradeTax');
    tax.ele('ram:CalculatedAmount').txt(centsToDecimal(group.taxCents));
    tax.ele('ram:TypeCode').txt('VAT');
    if (reason) tax.ele('ram:ExemptionReason').txt(reason);
    tax.ele('ram:BasisAmount').txt(centsToDecimal(group.netCents));
    tax.ele('ram:CategoryCode').txt(code);
    if (code === 'AE') tax.ele('ram:ExemptionReasonCode').txt('VATEX-EU-AE');
    tax.ele('ram:RateApplicablePercent').txt(decimal(group.taxRate));
  }
  if (period) {
    const billing = settlement.ele('ram:BillingSpecifiedPeriod');
    dateElement(billing, 'ram:StartDateTime', d.serviceDate!);
    dateElement(billing, 'ram:EndDateTime', d.serviceEndDate!);
  }
  paymentTermsNode(settlement, d, f);
  const sums = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  sums.ele('ram:LineTotalAmount').txt(centsToDecimal(d.netCents));
  sums.ele('ram:TaxBasisTotalAmount').txt(centsToDecimal(d.netCents));
  sums.ele('ram:TaxTotalAmount', { currencyID: 'EUR' }).txt(centsToDecimal(d.taxCents));
  sums.ele('ram:GrandTotalAmount').txt(centsToDecimal(d.grossCents));
  // BT-113: the down payments received that a final invoice deducts (gross; their VAT is in the notes).
  if (d.prepaidCents) sums.ele('ram:TotalPrepaidAmount').txt(centsToDecimal(d.prepaidCents));
  sums.ele('ram:DuePayableAmount').txt(centsToDecimal(d.amountDueCents));
  // BG-3: the invoice a cancellation cancels, or the one down payment a final invoice deducts (CII holds one).
  const preceding =
    d.type === 'creditNote' && d.sourceNumber
      ? { number: d.sourceNumber, issueDate: d.sourceIssueDate }
      : d.deductions.length === 1
        ? d.deductions[0]!
        : null;
  if (preceding) {
    const reference = settlement.ele('ram:InvoiceReferencedDocument');
    reference.ele('ram:IssuerAssignedID').txt(preceding.number);
    if (preceding.issueDate)
      reference
        .ele('ram:FormattedIssueDateTime')
        .ele('qdt:DateTimeString', { format: '102' })
        .txt(date102(preceding.issueDate));
  }

  return root.end({ prettyPrint: true });
}
