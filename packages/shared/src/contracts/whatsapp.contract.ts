import { z } from 'zod';
import { singleLineText } from './fields.ts';
import { defineContract } from './route-contract.ts';

const tags = ['WhatsApp'];
const permission = { action: 'update', subject: 'Company' } as const;

/** What a message from a number no user of the company saved gets: a polite refusal, or a public chat's answer. */
export const WHATSAPP_UNKNOWN_NUMBERS = ['refuse', 'publicChat'] as const;
export type WhatsAppUnknownNumbers = (typeof WHATSAPP_UNKNOWN_NUMBERS)[number];

/** Meta's ids are numbers written as text. */
const metaId = singleLineText(40).regex(/^\d{5,40}$/, { message: 'whatsapp.validation.id' });
const secretText = singleLineText(1000).min(8, { message: 'whatsapp.validation.secret' });
/** The verify token Meta echoes: what the server generated, letters, digits, `-` and `_`. */
const verifyToken = z.string().regex(/^[\w-]{16,100}$/, { message: 'whatsapp.validation.verifyToken' });

export const whatsappConnectionSchema = z
  .object({
    connected: z.boolean(),
    phoneNumberId: z.string(),
    businessAccountId: z.string(),
    /** The saved secrets, masked (their last characters); empty before the first save. */
    accessTokenHint: z.string(),
    appSecretHint: z.string(),
    /** The token to paste into Meta's webhook settings (a fresh proposal until the first save). */
    verifyToken: z.string(),
    /** The callback URL to paste into Meta's webhook settings. */
    webhookUrl: z.string(),
    unknownNumbers: z.enum(WHATSAPP_UNKNOWN_NUMBERS),
    publicChatId: z.uuid().nullable(),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WhatsAppConnection' });
export type WhatsAppConnection = z.infer<typeof whatsappConnectionSchema>;

/** The secrets may be left out when a connection is saved again: the saved ones are kept. */
export const whatsappConnectionBodySchema = z.strictObject({
  phoneNumberId: metaId,
  businessAccountId: metaId,
  accessToken: secretText.optional(),
  appSecret: secretText.optional(),
  verifyToken,
  unknownNumbers: z.enum(WHATSAPP_UNKNOWN_NUMBERS).default('refuse'),
  publicChatId: z.uuid().nullable().default(null),
});
export type WhatsAppConnectionBody = z.input<typeof whatsappConnectionBodySchema>;

/** A test of the given phone-number id with the given token (or the saved one): Meta's answer for the number. */
export const whatsappTestBodySchema = z.strictObject({
  phoneNumberId: metaId,
  accessToken: secretText.optional(),
});
export type WhatsAppTestBody = z.input<typeof whatsappTestBodySchema>;

export const whatsappTestSchema = z
  .object({
    ok: z.boolean(),
    /** The number as Meta shows it, and the business name it was verified with. */
    displayPhoneNumber: z.string().nullable(),
    verifiedName: z.string().nullable(),
    /** Why the test failed, in the caller's language. */
    message: z.string().nullable(),
  })
  .meta({ id: 'WhatsAppTest' });
export type WhatsAppTest = z.infer<typeof whatsappTestSchema>;

const webhookParams = z.object({ companyKey: z.string().regex(/^[\w-]{10,64}$/) });

export const whatsappContracts = {
  get: defineContract({
    method: 'GET',
    path: '/whatsapp/connection',
    operationId: 'getWhatsAppConnection',
    summary:
      "The company's WhatsApp number, its secrets masked, and what to paste into Meta's webhook settings",
    tags,
    permission,
    responses: { 200: whatsappConnectionSchema },
  }),
  save: defineContract({
    method: 'PUT',
    path: '/whatsapp/connection',
    operationId: 'saveWhatsAppConnection',
    summary: "Connects or changes the company's WhatsApp number (one per company; secrets sealed at rest)",
    tags,
    permission,
    body: whatsappConnectionBodySchema,
    responses: { 200: whatsappConnectionSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/whatsapp/connection',
    operationId: 'deleteWhatsAppConnection',
    summary: "Disconnects the company's WhatsApp number (its conversations stay in the chats)",
    tags,
    permission,
    responses: { 204: z.undefined() },
  }),
  test: defineContract({
    method: 'POST',
    path: '/whatsapp/connection/test',
    operationId: 'testWhatsAppConnection',
    summary: "Asks Meta's Graph API for the phone number with the given (or saved) access token",
    tags,
    permission,
    body: whatsappTestBodySchema,
    responses: { 200: whatsappTestSchema },
  }),
  verifyWebhook: defineContract({
    method: 'GET',
    path: '/webhooks/whatsapp/:companyKey',
    operationId: 'verifyWhatsAppWebhook',
    summary: "Meta's webhook verification: echoes hub.challenge for the right hub.verify_token",
    tags,
    permission: 'public',
    params: webhookParams,
    querystring: z.object({
      'hub.mode': singleLineText(40).optional(),
      'hub.verify_token': singleLineText(200).optional(),
      'hub.challenge': singleLineText(200).optional(),
    }),
    responses: { 200: z.string() },
  }),
  receiveWebhook: defineContract({
    method: 'POST',
    path: '/webhooks/whatsapp/:companyKey',
    operationId: 'receiveWhatsAppWebhook',
    summary:
      "Meta's deliveries, signed (X-Hub-Signature-256 over the raw body); each message is stored once and answered by a job",
    tags,
    permission: 'public',
    params: webhookParams,
    responses: { 200: z.object({ received: z.literal(true) }) },
  }),
};
