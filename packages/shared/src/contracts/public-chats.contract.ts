import { z } from 'zod';
import { askBodySchema, chatMessageSchema } from './chats.contract.ts';
import { feedbackBodySchema, feedbackSchema } from './feedback.contract.ts';
import { e164PhoneField, emailField, plainText, singleLineText } from './fields.ts';
import { defineContract } from './route-contract.ts';

/** A share link's token: random, URL-safe. */
export const shareTokenField = z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, { message: 'validation.invalid' });

export const publicVisitorSchema = z.object({
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export type PublicVisitor = z.infer<typeof publicVisitorSchema>;

export const publicChatSchema = z
  .object({
    name: z.string(),
    companyName: z.string().nullable(),
    /** The company's logo (its public address), shown instead of the product's to the company's customers; or null. */
    companyLogoUrl: z.string().nullable(),
    /** The company's colour ("#1f5fa8"), or null for the product's. */
    companyColor: z.string().nullable(),
    /** A ready file exists in the chat's divisions. */
    canAsk: z.boolean(),
    /** The bot check a new visitor passes ('off' when the installation disabled it). */
    botCheck: z.enum(['altcha', 'recaptcha', 'turnstile', 'off']),
    botCheckSiteKey: z.string().nullable(),
    /** This browser's visitor, once it passed the bot check. */
    visitor: publicVisitorSchema.nullable(),
  })
  .meta({ id: 'PublicChat' });
export type PublicChat = z.infer<typeof publicChatSchema>;

/** ALTCHA's proof-of-work challenge (protocol v2): the key derivation's parameters, signed by the server. */
export const altchaChallengeSchema = z
  .object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number().int(),
      keyLength: z.number().int(),
      keyPrefix: z.string(),
      expiresAt: z.number().int().optional(),
    }),
    signature: z.string(),
  })
  .meta({ id: 'AltchaChallenge' });

export const visitorBodySchema = z.strictObject({
  /** The bot check's answer (the ALTCHA payload); needed only when this browser is not yet a visitor. */
  botCheck: plainText(4000).optional(),
  name: singleLineText(120).nullable().optional(),
  phone: e164PhoneField
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  email: emailField
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
});

const tags = ['public-chats'];
const tokenParams = z.object({ token: shareTokenField });
const streamResponse = z.string().meta({ description: 'text/event-stream, as for askChat.' });

export const publicChatContracts = {
  altcha: defineContract({
    method: 'GET',
    path: '/public/altcha-challenge',
    operationId: 'altchaChallenge',
    summary: 'A fresh proof-of-work challenge of the self-hosted ALTCHA bot check',
    tags,
    permission: 'public',
    responses: { 200: altchaChallengeSchema },
  }),
  get: defineContract({
    method: 'GET',
    path: '/public/chats/:token',
    operationId: 'getPublicChat',
    summary: 'A public chat opened by its share link (404 once the link is revoked)',
    tags,
    permission: 'public',
    params: tokenParams,
    responses: { 200: publicChatSchema },
  }),
  join: defineContract({
    method: 'POST',
    path: '/public/chats/:token/visitor',
    operationId: 'joinPublicChat',
    summary:
      "Becomes this link's visitor after the bot check (a cookie keeps the visitor's own thread), or updates the visitor's name and contact",
    tags,
    permission: 'public',
    params: tokenParams,
    body: visitorBodySchema,
    responses: { 200: publicVisitorSchema },
  }),
  messages: defineContract({
    method: 'GET',
    path: '/public/chats/:token/messages',
    operationId: 'listPublicChatMessages',
    summary: "The visitor's own thread, oldest first",
    tags,
    permission: 'public',
    params: tokenParams,
    responses: { 200: z.object({ items: z.array(chatMessageSchema) }) },
  }),
  ask: defineContract({
    method: 'POST',
    path: '/public/chats/:token/messages',
    operationId: 'askPublicChat',
    summary:
      "Asks a public chat as its visitor (rate-limited per address); answers only from the chat's divisions",
    tags,
    permission: 'public',
    params: tokenParams,
    body: askBodySchema,
    responses: { 200: streamResponse },
  }),
  feedback: defineContract({
    method: 'PUT',
    path: '/public/chats/:token/messages/:messageId/feedback',
    operationId: 'givePublicFeedback',
    summary: "Feedback on an answer of the visitor's own thread",
    tags,
    permission: 'public',
    params: tokenParams.extend({ messageId: z.uuid() }),
    body: feedbackBodySchema,
    responses: { 200: feedbackSchema },
  }),
};
