import { z } from 'zod';
import { meResponseSchema } from './auth.contract.ts';
import { plainText } from './fields.ts';
import { defineContract, messageSchema, uuidParam } from './route-contract.ts';

/** A six-digit code of the authenticator app. */
const totpCodeField = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'auth.twoFactor.codeFormat' });
/** A recovery code as printed (`abcde-fghjk`); dashes and case do not matter. */
const recoveryCodeField = plainText(40).min(10, { message: 'validation.required' });

/** Either a code of the app or one of the recovery codes. */
export const secondFactorProofSchema = z.union([
  z.strictObject({ code: totpCodeField }),
  z.strictObject({ recoveryCode: recoveryCodeField }),
]);

export const totpCodeBodySchema = z.strictObject({ code: totpCodeField });

/** A new authenticator: the secret (for typing in), its `otpauth://` address and that address as a QR code. */
export const enrolmentSchema = z
  .object({ secret: z.string(), otpauthUri: z.string(), qrCode: z.string() })
  .meta({ id: 'TwoFactorEnrolment' });
export type TwoFactorEnrolment = z.infer<typeof enrolmentSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** A completed sign-in; after an enrolment with the recovery codes, shown once. */
export const secondFactorSignedInSchema = meResponseSchema.extend({
  recoveryCodes: z.array(z.string()).nullable(),
});

export const twoFactorStatusSchema = z
  .object({ enabled: z.boolean(), required: z.boolean(), recoveryCodesLeft: z.number().int() })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

const tags = ['auth'];

export const twoFactorContracts = {
  startSignInEnrolment: defineContract({
    method: 'POST',
    path: '/auth/two-factor/enrolment',
    operationId: 'startSignInEnrolment',
    summary:
      'During a sign-in that must enrol (the ww_2fa cookie): a new authenticator secret and its QR code',
    tags,
    permission: 'public',
    responses: { 200: enrolmentSchema },
  }),
  verifySecondFactor: defineContract({
    method: 'POST',
    path: '/auth/two-factor/verify',
    operationId: 'verifySecondFactor',
    summary:
      'Completes a sign-in (the ww_2fa cookie) with an authenticator code or a recovery code; sets the session cookies',
    tags,
    permission: 'public',
    body: secondFactorProofSchema,
    responses: { 200: secondFactorSignedInSchema },
  }),
  twoFactorStatus: defineContract({
    method: 'GET',
    path: '/account/two-factor',
    operationId: 'twoFactorStatus',
    summary: "The signed-in user's second factor: on or off, required or not, recovery codes left",
    tags,
    permission: 'signedIn',
    responses: { 200: twoFactorStatusSchema },
  }),
  startAccountEnrolment: defineContract({
    method: 'POST',
    path: '/account/two-factor/enrolment',
    operationId: 'startAccountEnrolment',
    summary: 'Starts setting up an authenticator app for the signed-in user',
    tags,
    permission: 'signedIn',
    responses: { 200: enrolmentSchema },
  }),
  confirmAccountEnrolment: defineContract({
    method: 'POST',
    path: '/account/two-factor/confirm',
    operationId: 'confirmAccountEnrolment',
    summary: 'Confirms the authenticator with its first code; answers the recovery codes once',
    tags,
    permission: 'signedIn',
    body: totpCodeBodySchema,
    responses: { 200: recoveryCodesSchema },
  }),
  disableTwoFactor: defineContract({
    method: 'POST',
    path: '/account/two-factor/disable',
    operationId: 'disableTwoFactor',
    summary: 'Switches the second factor off with a current code (not when the roles require it)',
    tags,
    permission: 'signedIn',
    body: secondFactorProofSchema,
    responses: { 200: messageSchema },
  }),
  resetUserTwoFactor: defineContract({
    method: 'DELETE',
    path: '/admin/users/:userId/two-factor',
    operationId: 'resetUserTwoFactor',
    summary: "Removes another user's second factor (a lost phone); they enrol again at their next sign-in",
    tags: ['admin'],
    permission: { action: 'update', subject: 'User' },
    params: uuidParam('userId'),
    responses: { 204: z.null() },
  }),
};
