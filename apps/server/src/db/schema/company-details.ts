import { boolean, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

/**
 * A company's master data for its documents (offers, invoices): one row per company, written by its data manager.
 * The company's name stays on `companies`. Optional fields are null when not given.
 */
export const companyDetails = pgTable('company_details', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  website: text('website'),
  street: text('street'),
  postalCode: text('postal_code'),
  city: text('city'),
  country: text('country').notNull(),
  phone: text('phone'),
  email: text('email'),
  vatId: text('vat_id'),
  taxNumber: text('tax_number'),
  /** Percent, two decimals (19.00). */
  standardTaxRate: numeric('standard_tax_rate', { precision: 5, scale: 2 }).notNull(),
  registerNumber: text('register_number'),
  registryCourt: text('registry_court'),
  managingDirector: text('managing_director'),
  iban: text('iban'),
  bic: text('bic'),
  /** A small business under § 19 UStG: its documents charge no VAT and say why. */
  smallBusiness: boolean('small_business').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
