import type {
  CashDiscount,
  Deduction,
  InvoiceKind,
  LineSource,
  SalesDocumentType,
  TaxTreatment,
} from '@werkwissen/shared';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { users } from './users.ts';

/** A company's customers: the buyers of its offers and invoices (/handwerk). Optional fields are '' when not given. */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    street: text('street').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    city: text('city').notNull().default(''),
    country: text('country').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    vatId: text('vat_id').notNull().default(''),
    /** BT-10: the Leitweg-ID of a German public buyer, or the buyer's own order reference. */
    buyerReference: text('buyer_reference').notNull().default(''),
    /** A business or a private customer (a consumer: § 14 (4) no. 9 UStG's notice for work on a property). */
    kind: text('kind', { enum: ['business', 'private'] })
      .notNull()
      .default('private'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customers_company_idx').on(t.companyId, t.name)],
);

/** One line of a document as stored (amounts in cents; `source` cites the price-list passage of a drafted line). */
export interface StoredLine {
  description: string;
  quantity: number;
  unit: string;
  unitPriceCents: number;
  discountPercent: number;
  taxRate: number;
  source: LineSource | null;
}

/** A party as printed on an issued document: what it was when the document was issued. */
export interface StoredParty {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  email: string;
  vatId: string;
  [field: string]: string | number | boolean;
}

/**
 * Offers, order confirmations, invoices and credit notes. A draft has no number, buyer or seller (they are read
 * live); finalising stores the next number of its series and the buyer and seller as they are, and freezes it.
 */
export const salesDocuments = pgTable(
  'sales_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').$type<SalesDocumentType>().notNull(),
    /** draft, issued, sent, accepted, paid or cancelled (overdue is read from the due date). */
    status: text('status', { enum: ['draft', 'issued', 'sent', 'accepted', 'paid', 'cancelled'] })
      .notNull()
      .default('draft'),
    /** An invoice's kind: standard, down payment or final (other types: standard). */
    invoiceKind: text('invoice_kind').$type<InvoiceKind>().notNull().default('standard'),
    taxTreatment: text('tax_treatment').$type<TaxTreatment>().notNull().default('standard'),
    number: text('number'),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'no action' }),
    language: text('language').notNull(),
    issueDate: date('issue_date').notNull(),
    dueDate: date('due_date'),
    /** The delivery or service date, or the first day of the service period. */
    serviceDate: date('service_date'),
    serviceEndDate: date('service_end_date'),
    /** An offer's validity. */
    validUntil: date('valid_until'),
    propertyService: boolean('property_service').notNull().default(true),
    cashDiscount: jsonb('cash_discount').$type<CashDiscount>(),
    title: text('title').notNull().default(''),
    notes: text('notes').notNull().default(''),
    lines: jsonb('lines').$type<StoredLine[]>().notNull().default([]),
    netCents: bigint('net_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull().default(0),
    grossCents: bigint('gross_cents', { mode: 'number' }).notNull().default(0),
    /** A final invoice's deducted down payments, frozen when it is issued, and their gross sum. */
    deductions: jsonb('deductions').$type<Deduction[]>().notNull().default([]),
    prepaidCents: bigint('prepaid_cents', { mode: 'number' }).notNull().default(0),
    buyer: jsonb('buyer').$type<StoredParty>(),
    seller: jsonb('seller').$type<StoredParty>(),
    sourceDocumentId: uuid('source_document_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    finalisedAt: timestamp('finalised_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sales_documents_company_idx').on(t.companyId, t.createdAt),
    index('sales_documents_customer_idx').on(t.customerId),
    uniqueIndex('sales_documents_number_idx').on(t.companyId, t.number),
    index('sales_documents_source_idx').on(t.sourceDocumentId),
  ],
);

/**
 * The last number given per company, document type and year: one row per series, raised with `update … returning`
 * inside the finalising transaction, so that two users finalising at once get consecutive numbers, none twice, and
 * a rolled-back finalisation gives its number back.
 */
export const documentNumberSeries = pgTable(
  'document_number_series',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').$type<SalesDocumentType>().notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.type, t.year] })],
);
