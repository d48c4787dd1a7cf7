import { divideRounded, type SalesDocument } from '@werkwissen/shared';
import type { DocumentFormat } from './document-format.ts';

/**
 * The texts the law asks of a document, in its language, shared by its PDF and its e-invoice: the title of its kind,
 * the service date or period (§ 14 (4) no. 6 UStG), the notices of § 13b, § 19 and § 14 (4) no. 9 UStG, and the
 * payment terms with the cash discount.
 */

const isInvoice = (d: SalesDocument) => d.type === 'invoice';

/** "Rechnung", "Abschlagsrechnung", "Schlussrechnung", "Stornorechnung", "Angebot" … */
export function documentTitle(d: Pick<SalesDocument, 'type' | 'invoiceKind'>, { t }: DocumentFormat): string {
  return d.type === 'invoice' && d.invoiceKind !== 'standard'
    ? t(`kind.${d.invoiceKind}`)
    : t(`type.${d.type}`);
}

/** The service date, or the period "from – to"; null when the document has none. */
export function servicePeriod(d: SalesDocument, { t, date }: DocumentFormat): [string, string] | null {
  if (!d.serviceDate) return null;
  if (!d.serviceEndDate || d.serviceEndDate === d.serviceDate) return [t('serviceDate'), date(d.serviceDate)];
  return [t('servicePeriod'), t('period', { from: date(d.serviceDate), to: date(d.serviceEndDate) })];
}

/** Whether an invoice must tell a private customer to keep it two years (work on a property, § 14 (4) no. 9). */
export function needsRetentionNotice(d: SalesDocument): boolean {
  return isInvoice(d) && d.buyer.kind === 'private' && d.propertyService;
}

/** Why no VAT is charged: the reverse charge (§ 13b) or the small business (§ 19); null for standard VAT. */
export function exemptionReason(d: SalesDocument, { t }: DocumentFormat): string | null {
  if (d.taxTreatment === 'reverseCharge') return t('reverseChargeReason');
  if (d.taxTreatment === 'smallBusiness') return t('smallBusinessReason');
  return null;
}

/** The notices a document prints below its totals. */
export function legalNotices(d: SalesDocument, f: DocumentFormat): string[] {
  const notices: string[] = [];
  if (d.taxTreatment === 'reverseCharge') notices.push(f.t('reverseCharge'));
  if (d.taxTreatment === 'smallBusiness') notices.push(f.t('smallBusiness'));
  if (needsRetentionNotice(d)) notices.push(f.t('retention'));
  return notices;
}

const plusDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** An invoice's cash discount: until when, how much off the amount due, and what is then paid; or null. */
export function cashDiscountTerms(d: SalesDocument) {
  if (!isInvoice(d) || !d.cashDiscount || d.amountDueCents <= 0) return null;
  const discountCents = divideRounded(
    BigInt(d.amountDueCents) * BigInt(Math.round(d.cashDiscount.percent * 100)),
    10000n,
  );
  return {
    until: plusDays(d.issueDate, d.cashDiscount.days),
    percent: d.cashDiscount.percent,
    days: d.cashDiscount.days,
    discountCents,
    payCents: d.amountDueCents - discountCents,
  };
}

/** How the customer pays (an invoice) or how a cancellation is settled, in sentences; [] for offers. */
export function paymentTerms(d: SalesDocument, f: DocumentFormat): string[] {
  const reference = d.number ?? '';
  if (d.type === 'creditNote')
    return [f.t('cancellationTerms', { amount: f.money(d.amountDueCents), number: d.sourceNumber ?? '' })];
  if (!isInvoice(d)) return [];
  if (d.amountDueCents <= 0) return [f.t('nothingDue')];
  const terms = d.dueDate
    ? [f.t('paymentTerms', { amount: f.money(d.amountDueCents), date: f.date(d.dueDate), number: reference })]
    : [];
  const discount = cashDiscountTerms(d);
  if (discount)
    terms.push(
      f.t('cashDiscount', {
        date: f.date(discount.until),
        percent: f.number(discount.percent),
        amount: f.money(discount.payCents),
      }),
    );
  return terms;
}
