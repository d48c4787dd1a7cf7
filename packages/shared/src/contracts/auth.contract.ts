import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { abilityRuleSchema } from '../permissions/ability-rule.ts';
import { USER_KINDS } from '../permissions/subjects.ts';
import {
  botCheckField,
  countryField,
  e164PhoneField,
  emailField,
  givenPasswordField,
  languageField,
  passwordField,
  plainText,
  requiredText,
  singleLineText,
  withPasswordConfirmation,
} from './fields.ts';
import { defineContract, messageSchema } from './route-contract.ts';

export const LOGIN_AREAS = ['user', 'employee', 'admin', 'analysis'] as const;
export type LoginArea = (typeof LOGIN_AREAS)[number];

export const userDataSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    fullName: z.string(),
    phone: z.string().nullable(),
    language: z.enum(LANGUAGES),
    country: z.string().nullable(),
    kind: z.enum(USER_KINDS),
    companyId: z.uuid().nullable(),
    companyName: z.string().nullable(),
    emailVerified: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'UserData' });
export type UserData = z.infer<typeof userDataSchema>;

export const meResponseSchema = z
  .object({
    userData: userDataSchema,
    userRole: z.enum(USER_KINDS),
    userAbilityRules: z.array(abilityRuleSchema),
    /** The session's CSRF token; null when the caller authenticated with an API key. */
    csrfToken: z.string().nullable(),
    /** While an operator views the product as this user: who, and when it ends by itself. */
    impersonation: z.object({ by: z.string(), expiresAt: z.iso.datetime() }).nullable().optional(),
  })
  .meta({ id: 'Me' });
export type MeResponse = z.infer<typeof meResponseSchema>;

/** The answer of a right password when a second factor follows: which step; the pending state is a cookie. */
export const secondFactorPendingSchema = z
  .object({ secondFactor: z.enum(['verify', 'enrol']) })
  .meta({ id: 'SecondFactorPending' });
export type SecondFactorPending = z.infer<typeof secondFactorPendingSchema>;

export const loginResponseSchema = z.union([meResponseSchema, secondFactorPendingSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** The sign-up fields, before the password confirmation is checked (the web form reads its terms box through them). */
export const registerFieldsSchema = z.strictObject({
  email: emailField,
  firstName: requiredText(100),
  lastName: requiredText(100),
  phone: e164PhoneField,
  password: passwordField,
  confirmPassword: givenPasswordField(),
  language: languageField,
  country: countryField,
  companyName: singleLineText(200).optional(),
  acceptTerms: z.literal(true, { message: 'validation.termsRequired' }),
  /** The bot check's answer (every public form carries one while bot protection is on). */
  botCheck: botCheckField.optional(),
});

export const registerBodySchema = withPasswordConfirmation(registerFieldsSchema);

export const loginBodySchema = z.strictObject({
  email: emailField,
  password: givenPasswordField(),
  area: z.enum(LOGIN_AREAS).default('user'),
  /** The bot check's answer; needed once the account had too many failed sign-ins (BOT_CHECK_REQUIRED). */
  botCheck: botCheckField.optional(),
});

/** A single-use token from a mail link. */
const tokenField = plainText(200).min(10);

export const tokenBodySchema = z.strictObject({ token: tokenField });

export const forgotPasswordBodySchema = z.strictObject({
  email: emailField,
  botCheck: botCheckField.optional(),
});

export const resetPasswordBodySchema = withPasswordConfirmation(
  z.strictObject({
    token: tokenField,
    password: passwordField,
    confirmPassword: givenPasswordField(),
    botCheck: botCheckField.optional(),
  }),
);

export const changePasswordBodySchema = withPasswordConfirmation(
  z.strictObject({
    currentPassword: givenPasswordField(),
    password: passwordField,
    confirmPassword: givenPasswordField(),
    /** Also revoke every personal API key of the user (a reset by mail always does). */
    revokeApiKeys: z.boolean().optional(),
  }),
);

/** A move of the signed-in account to a new address, proven by the current password. */
export const changeEmailBodySchema = z.strictObject({
  email: emailField,
  currentPassword: givenPasswordField(),
});

export const updateMeBodySchema = z.strictObject({
  firstName: requiredText(100).optional(),
  lastName: requiredText(100).optional(),
  phone: e164PhoneField.nullable().optional(),
  language: languageField.optional(),
  country: countryField.nullable().optional(),
});

/** After a new password: the account's address and the sign-in page of its area, where the page goes next. */
export const passwordSetResponseSchema = messageSchema.extend({ email: z.string(), loginPath: z.string() });
export type PasswordSetResponse = z.infer<typeof passwordSetResponseSchema>;

export const csrfResponseSchema = z.object({ csrfToken: z.string() });

const tags = ['auth'];

export const authContracts = {
  register: defineContract({
    method: 'POST',
    path: '/auth/register',
    operationId: 'register',
    summary: 'Sign up: creates a company, its data manager and a trial, and sends the verification mail',
    tags,
    permission: 'public',
    body: registerBodySchema,
    responses: { 201: messageSchema.extend({ userId: z.uuid() }) },
  }),
  verifyEmail: defineContract({
    method: 'POST',
    path: '/auth/verify-email',
    operationId: 'verifyEmail',
    summary: 'Confirms an e-mail address with the token from the verification mail',
    tags,
    permission: 'public',
    body: tokenBodySchema,
    responses: { 200: messageSchema },
  }),
  resendVerification: defineContract({
    method: 'POST',
    path: '/auth/resend-verification',
    operationId: 'resendVerification',
    summary: 'Sends a new verification mail to the signed-in user',
    tags,
    permission: 'signedIn',
    responses: { 200: messageSchema },
  }),
  login: defineContract({
    method: 'POST',
    path: '/auth/login',
    operationId: 'login',
    summary:
      'Signs in to one area; sets the session cookies, or (when a second factor follows) the short-lived ww_2fa cookie',
    tags,
    permission: 'public',
    body: loginBodySchema,
    responses: { 200: loginResponseSchema },
  }),
  logout: defineContract({
    method: 'POST',
    path: '/auth/logout',
    operationId: 'logout',
    summary: 'Ends the current session and clears its cookies',
    tags,
    permission: 'public',
    responses: { 200: messageSchema },
  }),
  refresh: defineContract({
    method: 'POST',
    path: '/auth/refresh',
    operationId: 'refresh',
    summary: 'Rotates the refresh token and issues a new access token',
    tags,
    permission: 'public',
    responses: { 200: meResponseSchema },
  }),
  csrf: defineContract({
    method: 'GET',
    path: '/auth/csrf',
    operationId: 'csrf',
    summary: "Returns the session's CSRF token (also in the ww_csrf cookie)",
    tags,
    permission: 'signedIn',
    responses: { 200: csrfResponseSchema },
  }),
  forgotPassword: defineContract({
    method: 'POST',
    path: '/auth/forgot-password',
    operationId: 'forgotPassword',
    summary: 'Sends a reset link if the address is known; answers the same either way',
    tags,
    permission: 'public',
    body: forgotPasswordBodySchema,
    responses: { 200: messageSchema },
  }),
  resetPassword: defineContract({
    method: 'POST',
    path: '/auth/reset-password',
    operationId: 'resetPassword',
    summary:
      'Sets a new password with a single-use reset token (1 hour); ends every session and revokes every API key',
    tags,
    permission: 'public',
    body: resetPasswordBodySchema,
    responses: { 200: passwordSetResponseSchema },
  }),
  setPassword: defineContract({
    method: 'POST',
    path: '/auth/set-password',
    operationId: 'setPassword',
    summary: 'Sets the first password of an invited user (or the first administrator)',
    tags,
    permission: 'public',
    body: resetPasswordBodySchema,
    responses: { 200: passwordSetResponseSchema },
  }),
  changePassword: defineContract({
    method: 'POST',
    path: '/auth/change-password',
    operationId: 'changePassword',
    summary:
      "Changes the signed-in user's password and ends their other sessions (and, on request, their API keys)",
    tags,
    permission: 'signedIn',
    body: changePasswordBodySchema,
    responses: { 200: messageSchema },
  }),
  changeEmail: defineContract({
    method: 'POST',
    path: '/auth/change-email',
    operationId: 'changeEmail',
    summary:
      'Mails a confirmation link to a new address for the signed-in account; the address changes when it is opened',
    tags,
    permission: 'signedIn',
    body: changeEmailBodySchema,
    responses: { 200: messageSchema },
  }),
  confirmEmailChange: defineContract({
    method: 'POST',
    path: '/auth/confirm-email-change',
    operationId: 'confirmEmailChange',
    summary: 'Moves the account to the new address of the token from the confirmation mail',
    tags,
    permission: 'public',
    body: tokenBodySchema,
    responses: { 200: messageSchema },
  }),
  me: defineContract({
    method: 'GET',
    path: '/auth/me',
    operationId: 'me',
    summary: 'The signed-in user, their role and their permission rules',
    tags,
    permission: 'signedIn',
    responses: { 200: meResponseSchema },
  }),
  updateMe: defineContract({
    method: 'PATCH',
    path: '/auth/me',
    operationId: 'updateMe',
    summary: "Updates the signed-in user's account details and language",
    tags,
    permission: 'signedIn',
    body: updateMeBodySchema,
    responses: { 200: meResponseSchema },
  }),
};
