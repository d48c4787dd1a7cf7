import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { checkVAT, countries } from 'jsvat';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { z } from 'zod';
import { countryField, emailField, phoneField, requiredText, singleLineText } from './fields.ts';
import { defineContract } from './route-contract.ts';

/**
 * What an invoice and its e-invoice (XRechnung, Factur-X) need of the seller, each a gap while not given:
 * - `name`, `address` (street, postal code, city): § 14 (4) no. 1 UStG, BT-27, BT-35, BT-37, BT-38;
 * - `taxId`, a VAT id or tax number: § 14 (4) no. 2 UStG, BT-31 or BT-32;
 * - `legalId`, a VAT id or a register entry (commercial register, Handwerksrolle), the seller's identifier that
 *   EN 16931 asks for (BR-CO-26: BT-29, BT-30 or BT-31; a tax number does not count);
 * - `email`: the seller's electronic address (PEPPOL-EN16931-R020, BT-34) and contact e-mail (BR-DE-7, BT-43);
 * - `phone`: the contact's telephone (BR-DE-6, BT-42);
 * - `iban`: where to pay (BR-DE-1 payment instructions, BR-DE-23 credit transfer account).
 */
export const COMPANY_DETAIL_GAPS = ['name', 'address', 'taxId', 'legalId', 'email', 'phone', 'iban'] as const;
export type CompanyDetailGap = (typeof COMPANY_DETAIL_GAPS)[number];

/** A field the company may leave empty: '' means "not given". */
export const optional = (max: number) => singleLineText(max).transform((v) => v.trim());
/** Empty, or valid as `field` (whose message it keeps, and whose written form it takes). */
export const orEmpty = (field: z.ZodType<string, string>, message: string) =>
  optional(300)
    .refine((v) => v === '' || field.safeParse(v).success, { message })
    .transform((v) => (v === '' ? v : field.parse(v)));

/** An IBAN with or without spaces, kept in its electronic form (no spaces, upper case) when its checksum holds. */
const ibanField = optional(42)
  .transform((v) => (v ? (electronicFormatIBAN(v) ?? v) : v))
  .refine((v) => v === '' || isValidIBAN(v), { message: 'validation.iban' });

const bicField = optional(30)
  .transform((v) => v.replace(/\s/g, '').toUpperCase())
  .refine((v) => v === '' || isValidBIC(v), { message: 'validation.bic' });

/** A VAT identification number whose format and check digits hold for its country (e.g. DE, AT, FR, PL). */
export const vatIdField = optional(30)
  .transform((v) => v.replace(/[\s.-]/g, '').toUpperCase())
  .refine((v) => v === '' || checkVAT(v, countries).isValid, { message: 'validation.vatId' });

/** A web address as people write it ("www.example.de", "example.de/kontakt"), kept with its scheme (https:// added). */
const websiteField = optional(300)
  .transform((v) => (v === '' || /^https?:\/\//i.test(v) ? v : `https://${v}`))
  .refine((v) => v === '' || /^https?:\/\/[^\s/:@]+\.[^\s/:@.]{2,}(?:[/:?#]\S*)?$/i.test(v), {
    message: 'validation.website',
  });

/** A postal code must fit its country where a pattern for it is known (German ones are five digits). */
export function checkPostalCode(v: { postalCode: string; country: string }, ctx: z.RefinementCtx): void {
  if (
    v.postalCode &&
    postcodeValidatorExistsForCountry(v.country) &&
    !postcodeValidator(v.postalCode, v.country)
  )
    ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'validation.postalCode' });
}

/**
 * A company's master data for documents such as offers and invoices (spec section 3, "Company details"). Optional
 * fields are '' when not given; the postal code must fit the country where a pattern for it is known.
 */
export const companyDetailsBodySchema = z
  .strictObject({
    name: requiredText(200),
    website: websiteField,
    street: optional(200),
    postalCode: optional(30),
    city: optional(100),
    country: countryField,
    phone: orEmpty(phoneField, 'validation.phone'),
    email: orEmpty(emailField, 'validation.email'),
    vatId: vatIdField,
    taxNumber: optional(30),
    /** The standard tax rate of the company's services, in percent (19 in Germany). */
    standardTaxRate: z
      .number({ message: 'validation.required' })
      .min(0, { message: 'validation.numberMin' })
      .max(100, { message: 'validation.numberMax' })
      .multipleOf(0.01, { message: 'validation.invalid' }),
    registerNumber: optional(50),
    registryCourt: optional(100),
    managingDirector: optional(200),
    iban: ibanField,
    bic: bicField,
    /** A small business under § 19 UStG: no VAT on its documents, which say so. */
    smallBusiness: z.boolean({ message: 'validation.invalid' }).default(false),
  })
  .superRefine(checkPostalCode);
export type CompanyDetailsBody = z.input<typeof companyDetailsBodySchema>;

export const companyDetailsSchema = z
  .object({
    name: z.string(),
    website: z.string(),
    street: z.string(),
    postalCode: z.string(),
    city: z.string(),
    country: z.string(),
    phone: z.string(),
    email: z.string(),
    vatId: z.string(),
    taxNumber: z.string(),
    standardTaxRate: z.number(),
    registerNumber: z.string(),
    registryCourt: z.string(),
    managingDirector: z.string(),
    iban: z.string(),
    bic: z.string(),
    smallBusiness: z.boolean(),
    /** What an invoice and its e-invoice still need (`COMPANY_DETAIL_GAPS`); empty when complete. */
    missing: z.array(z.enum(COMPANY_DETAIL_GAPS)),
    /** Whether everything an invoice and its e-invoice need is given (`missing` is empty). */
    complete: z.boolean(),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'CompanyDetails' });
export type CompanyDetails = z.infer<typeof companyDetailsSchema>;

const tags = ['company'];

export const companyDetailsContracts = {
  get: defineContract({
    method: 'GET',
    path: '/company/details',
    operationId: 'getCompanyDetails',
    summary: "The caller's company's master data",
    tags,
    permission: { action: 'read', subject: 'Company' },
    responses: { 200: companyDetailsSchema },
  }),
  save: defineContract({
    method: 'PUT',
    path: '/company/details',
    operationId: 'saveCompanyDetails',
    summary: "Saves the caller's company's master data (also the company's name)",
    tags,
    permission: { action: 'update', subject: 'Company' },
    body: companyDetailsBodySchema,
    responses: { 200: companyDetailsSchema },
  }),
};
