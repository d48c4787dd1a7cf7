import { z } from 'zod';
import { defineContract } from './route-contract.ts';

/** A phone number as WhatsApp names it (`wa_id`): its digits, country code first, no `+`. */
export const phoneDigits = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '');

/**
 * A user's phone number answers on WhatsApp as them only once they confirmed it: `none` (no number saved),
 * `unverified`, `pending` (a code was issued and waits to be sent from the number), `verified`.
 */
export const PHONE_VERIFICATION_STATES = ['none', 'unverified', 'pending', 'verified'] as const;
export type PhoneVerificationState = (typeof PHONE_VERIFICATION_STATES)[number];

export const phoneVerificationSchema = z
  .object({
    phone: z.string().nullable(),
    state: z.enum(PHONE_VERIFICATION_STATES),
    /** Whether the user's company connected a WhatsApp number (without one there is nothing to confirm with). */
    whatsappConnected: z.boolean(),
    /** The company's WhatsApp number as Meta shows it, to send the code to; null when unknown. */
    whatsappNumber: z.string().nullable(),
    /** Until when the pending code is valid. */
    expiresAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'PhoneVerification' });
export type PhoneVerification = z.infer<typeof phoneVerificationSchema>;

/** A new code, shown once: sent from the user's phone by WhatsApp to the company's number, it confirms the phone. */
export const phoneVerificationCodeSchema = z
  .object({
    code: z.string(),
    expiresAt: z.iso.datetime(),
    whatsappNumber: z.string().nullable(),
    /** WhatsApp's click-to-chat link (`https://wa.me/<number>?text=<code>`), when the company's number is known. */
    link: z.string().nullable(),
  })
  .meta({ id: 'PhoneVerificationCode' });
export type PhoneVerificationCode = z.infer<typeof phoneVerificationCodeSchema>;

const tags = ['auth'];

export const phoneVerificationContracts = {
  status: defineContract({
    method: 'GET',
    path: '/account/phone-verification',
    operationId: 'phoneVerificationStatus',
    summary: "The signed-in user's phone number and whether it answers on WhatsApp as them",
    tags,
    permission: 'signedIn',
    responses: { 200: phoneVerificationSchema },
  }),
  start: defineContract({
    method: 'POST',
    path: '/account/phone-verification',
    operationId: 'startPhoneVerification',
    summary:
      "A new code for the signed-in user's phone number, to send by WhatsApp from that number (limited per user; not while viewing as the user)",
    tags,
    permission: 'signedIn',
    responses: { 200: phoneVerificationCodeSchema },
  }),
};
