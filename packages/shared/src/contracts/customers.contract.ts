import { z } from 'zod';
import { checkPostalCode, optional, orEmpty, vatIdField } from './company-details.contract.ts';
import { countryField, emailField, phoneField, requiredText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

/**
 * A buyer reference as German public buyers require it (BT-10): the Leitweg-ID, "coarse-fine-check" such as
 * "991-01234-44" or "04011000-1234512345-06"; other buyers' order references are any short text.
 */
const buyerReferenceField = optional(100);

export const CUSTOMER_KINDS = ['business', 'private'] as const;

/** A customer of the company (spec: "customers" of issue 17, item 4): the buyer on its offers and invoices. */
export const customerBodySchema = z
  .strictObject({
    name: requiredText(200),
    street: optional(200),
    postalCode: optional(30),
    city: optional(100),
    country: countryField,
    email: orEmpty(emailField, 'validation.email'),
    phone: orEmpty(phoneField, 'validation.phone'),
    vatId: vatIdField,
    buyerReference: buyerReferenceField,
    /** A business, or a private customer (a consumer, told to keep invoices for work on a property two years). */
    kind: z.enum(CUSTOMER_KINDS, { message: 'validation.invalid' }).default('private'),
  })
  .superRefine(checkPostalCode);
export type CustomerBody = z.input<typeof customerBodySchema>;

export const customerSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    street: z.string(),
    postalCode: z.string(),
    city: z.string(),
    country: z.string(),
    email: z.string(),
    phone: z.string(),
    vatId: z.string(),
    buyerReference: z.string(),
    kind: z.enum(CUSTOMER_KINDS),
    documentCount: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof customerSchema>;

const tags = ['handwerk'];
const params = uuidParam('customerId');

export const customerContracts = {
  list: defineContract({
    method: 'GET',
    path: '/handwerk/customers',
    operationId: 'listCustomers',
    summary: "The company's customers, by name; `q` searches name, city and e-mail",
    tags,
    permission: { action: 'read', subject: 'Customer' },
    querystring: listQuerySchema,
    responses: { 200: listOf(customerSchema) },
  }),
  get: defineContract({
    method: 'GET',
    path: '/handwerk/customers/:customerId',
    operationId: 'getCustomer',
    summary: 'One customer',
    tags,
    permission: { action: 'read', subject: 'Customer' },
    params,
    responses: { 200: customerSchema },
  }),
  create: defineContract({
    method: 'POST',
    path: '/handwerk/customers',
    operationId: 'createCustomer',
    summary: 'Adds a customer',
    tags,
    permission: { action: 'create', subject: 'Customer' },
    body: customerBodySchema,
    responses: { 201: customerSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/handwerk/customers/:customerId',
    operationId: 'updateCustomer',
    summary: "Changes a customer (issued documents keep the buyer's data they were issued with)",
    tags,
    permission: { action: 'update', subject: 'Customer' },
    params,
    body: customerBodySchema,
    responses: { 200: customerSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/handwerk/customers/:customerId',
    operationId: 'deleteCustomer',
    summary: 'Deletes a customer who has no documents (CUSTOMER_IN_USE otherwise)',
    tags,
    permission: { action: 'delete', subject: 'Customer' },
    params,
    responses: { 204: z.null() },
  }),
};
