import { z } from 'zod';
import { FILE_KINDS } from './files.contract.ts';
import { defineContract, fileResponse, uuidParam } from './route-contract.ts';

/** The largest logo upload: an original of any sensible size; the server keeps a scaled PNG of it. */
export const COMPANY_LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** What a company logo may be uploaded as (by content; an SVG is sanitised and refused when it carries active content). */
export const COMPANY_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
/** The width the spec advises for an upload (section 5) and the width the shell shows it at (section 2). */
export const COMPANY_LOGO_IDEAL_WIDTH = 80;
export const COMPANY_LOGO_SHOWN_WIDTH = 100;

export const companyBrandingSchema = z
  .object({
    /** The company's logo, or null while the product's logo stands in. */
    logo: z
      .object({
        /** Public address of the PNG (also used in mails, so that mail clients can load it). */
        url: z.string(),
        width: z.number().int(),
        height: z.number().int(),
        updatedAt: z.iso.datetime(),
      })
      .nullable(),
    /** The company's colour for its public chat and feedback pages ("#1f5fa8"), or null for the product's. */
    brandColor: z.string().nullable(),
    /** The document every new division starts with, or null. */
    defaultDocument: z
      .object({
        name: z.string(),
        kind: z.enum(FILE_KINDS),
        sizeBytes: z.number().int(),
        updatedAt: z.iso.datetime(),
      })
      .nullable(),
  })
  .meta({ id: 'CompanyBranding' });
export type CompanyBranding = z.infer<typeof companyBrandingSchema>;

/** A colour as six hex digits: what the colour input writes and CSS reads. */
export const brandColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour as #rrggbb');
export const brandColorBodySchema = z.strictObject({ brandColor: brandColorSchema.nullable() });

/** Text must reach this contrast on the company colour and the colour on white (WCAG 2.x AA for body text). */
export const BRAND_COLOR_MIN_CONTRAST = 4.5;

/** The relative luminance of a #rrggbb colour (WCAG 2.x). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two #rrggbb colours, 1 to 21 (WCAG 2.x). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const tags = ['company'];
const read = { action: 'read', subject: 'Company' } as const;
const update = { action: 'update', subject: 'Company' } as const;

export const companyBrandingContracts = {
  get: defineContract({
    method: 'GET',
    path: '/company/branding',
    operationId: 'getCompanyBranding',
    summary: "The caller's company's logo and default document",
    tags,
    permission: read,
    responses: { 200: companyBrandingSchema },
  }),
  uploadLogo: defineContract({
    method: 'PUT',
    path: '/company/logo',
    operationId: 'uploadCompanyLogo',
    summary: `Replaces the company's logo (multipart/form-data, one part \`file\`: PNG, JPEG or SVG, at most ${COMPANY_LOGO_MAX_BYTES / 1024 / 1024} MB); cropped to its content and scaled on the server`,
    tags,
    permission: update,
    multipart: true,
    responses: { 200: companyBrandingSchema },
  }),
  removeLogo: defineContract({
    method: 'DELETE',
    path: '/company/logo',
    operationId: 'removeCompanyLogo',
    summary: "Removes the company's logo: the product's logo is shown again",
    tags,
    permission: update,
    responses: { 200: companyBrandingSchema },
  }),
  logo: defineContract({
    method: 'GET',
    path: '/branding/companies/:companyId/logo',
    operationId: 'companyLogo',
    summary: "A company's logo as PNG (404 while it has none): public, for its mails",
    tags: ['system'],
    permission: 'public',
    params: uuidParam('companyId'),
    responses: { 200: fileResponse('The logo as PNG', ['image/png']) },
  }),
  setBrandColor: defineContract({
    method: 'PUT',
    path: '/company/brand-color',
    operationId: 'setCompanyBrandColor',
    summary: `Sets the company's colour for its public chat and feedback pages (null: the product's); white text on it must reach a contrast of ${BRAND_COLOR_MIN_CONTRAST}:1 (BRAND_COLOR_LOW_CONTRAST)`,
    tags,
    permission: update,
    body: brandColorBodySchema,
    responses: { 200: companyBrandingSchema },
  }),
  uploadDefaultDocument: defineContract({
    method: 'PUT',
    path: '/company/default-document',
    operationId: 'uploadDefaultDocument',
    summary:
      'Replaces the document every new division starts with (multipart/form-data, one part `file`, checked like an upload)',
    tags,
    permission: update,
    multipart: true,
    responses: { 200: companyBrandingSchema },
  }),
  removeDefaultDocument: defineContract({
    method: 'DELETE',
    path: '/company/default-document',
    operationId: 'removeDefaultDocument',
    summary: 'Removes the default document (divisions that have a copy keep it)',
    tags,
    permission: update,
    responses: { 200: companyBrandingSchema },
  }),
};
