import { z } from 'zod';
import { isReturnPath } from '../routes/return-path.ts';
import { requiredText, singleLineText } from './fields.ts';
import { OIDC_AREAS, SIGN_IN_PROVIDER_KINDS } from './oidc-constants.ts';
import { defineContract, messageSchema, uuidParam } from './route-contract.ts';

const issuerUrl = singleLineText(500)
  .pipe(z.url({ protocol: /^https?$/, message: 'validation.url' }))
  .transform((v) => v.replace(/\/+$/, ''));
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    message: 'admin.settings.signIn.oidc.domainInvalid',
  });

/** What the operator enters for a provider; an empty `clientSecret` keeps the stored one. */
export const signInProviderBodySchema = z.strictObject({
  kind: z.enum(SIGN_IN_PROVIDER_KINDS, { message: 'validation.invalid' }),
  name: requiredText(80),
  issuer: issuerUrl,
  clientId: requiredText(300),
  clientSecret: singleLineText(500).optional(),
  allowedDomains: z.array(domain).max(50, { message: 'validation.tooLong' }),
  areas: z.array(z.enum(OIDC_AREAS, { message: 'validation.invalid' })).max(OIDC_AREAS.length),
  enabled: z.boolean({ message: 'validation.invalid' }),
});
export type SignInProviderBody = z.input<typeof signInProviderBodySchema>;

export const signInProviderSchema = z
  .object({
    id: z.string(),
    kind: z.enum(SIGN_IN_PROVIDER_KINDS),
    name: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.boolean(),
    allowedDomains: z.array(z.string()),
    areas: z.array(z.enum(OIDC_AREAS)),
    enabled: z.boolean(),
    /** `environment`: the GOOGLE_* keys, read-only here; saving a Google provider replaces it. */
    source: z.enum(['settings', 'environment']),
  })
  .meta({ id: 'SignInProvider' });
export type SignInProvider = z.infer<typeof signInProviderSchema>;

export const signInProviderListSchema = z.object({
  items: z.array(signInProviderSchema),
  /** The one redirect URI to register at every provider. */
  callbackUrl: z.string(),
});

/** A provider's button on a sign-in page. */
export const offeredProviderSchema = z
  .object({ id: z.string(), kind: z.enum(SIGN_IN_PROVIDER_KINDS), name: z.string() })
  .meta({ id: 'OfferedSignInProvider' });
export type OfferedProvider = z.infer<typeof offeredProviderSchema>;

export const identitySchema = z
  .object({
    id: z.uuid(),
    providerId: z.string().nullable(),
    providerName: z.string(),
    email: z.string().nullable(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'LinkedIdentity' });
export type LinkedIdentity = z.infer<typeof identitySchema>;

/** A return path after sign-in: same-site and relative only (`/x`, never `//host` or `/\host`; `isReturnPath`). */
export const returnPathField = singleLineText(2000).refine(isReturnPath, { message: 'validation.invalid' });

const providerParam = z.object({ providerId: z.string().regex(/^[a-z0-9-]{1,64}$/) });
const tags = ['sign-in providers'];
const manage = { action: 'update', subject: 'Setting' } as const;
const redirect = z.null().meta({ description: 'A redirect (Location header); no body' });

export const oidcContracts = {
  offered: defineContract({
    method: 'GET',
    path: '/auth/oidc/providers',
    operationId: 'listOfferedSignInProviders',
    summary: 'The providers whose "Sign in with ..." button an area\'s sign-in page shows',
    tags,
    permission: 'public',
    querystring: z.object({ area: z.enum(OIDC_AREAS) }),
    responses: { 200: z.object({ items: z.array(offeredProviderSchema) }) },
  }),
  start: defineContract({
    method: 'GET',
    path: '/auth/oidc/:providerId/start',
    operationId: 'startOidcSignIn',
    summary:
      'Sends the browser to the provider (code flow with PKCE, state and nonce in the single-use ww_oidc cookie)',
    tags,
    permission: 'public',
    params: providerParam,
    // A `to` that is not a same-site path is dropped, not refused: the browser is on a navigation.
    querystring: z.object({ area: z.enum(OIDC_AREAS), to: singleLineText(2000).optional() }),
    responses: { 302: redirect },
  }),
  googleButton: defineContract({
    method: 'GET',
    path: '/auth/oidc/:providerId/google-button',
    operationId: 'startGoogleButton',
    summary:
      "Opens a flow for Google's own button (its script is loaded on the sign-in page): the client id and the nonce its ID token must carry, the flow in the ww_oidc cookie",
    tags,
    permission: 'public',
    params: providerParam,
    // A GET like `start`: opening a sign-in page is no activity to log.
    querystring: z.object({ area: z.enum(OIDC_AREAS), to: singleLineText(2000).optional() }),
    responses: { 200: z.object({ clientId: z.string(), nonce: z.string() }) },
  }),
  credential: defineContract({
    method: 'POST',
    path: '/auth/oidc/credential',
    operationId: 'oidcCredential',
    summary:
      "The ID token Google's button handed to the page: checked like a callback's, then signs in or asks for the second factor; answers where the browser goes",
    tags,
    permission: 'public',
    // A JWT in compact form (header.payload.signature, base64url).
    body: z.strictObject({
      credential: z
        .string()
        .max(8192, { message: 'validation.tooLong' })
        .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, { message: 'validation.invalid' }),
    }),
    responses: { 200: z.object({ location: z.string() }) },
  }),
  callback: defineContract({
    method: 'GET',
    path: '/auth/oidc/callback',
    operationId: 'oidcCallback',
    summary:
      'The redirect URI of every provider: checks the answer and the ID token, then signs in, asks for the second factor or links',
    tags,
    permission: 'public',
    querystring: z.looseObject({}),
    responses: { 302: redirect },
  }),
  startLink: defineContract({
    method: 'POST',
    path: '/account/identities/:providerId/link',
    operationId: 'startIdentityLink',
    summary:
      'Starts linking a provider account to the signed-in user; answers the address to send the browser to',
    tags,
    permission: 'signedIn',
    params: providerParam,
    body: z.strictObject({ to: returnPathField }),
    responses: { 200: z.object({ url: z.string() }) },
  }),
  identities: defineContract({
    method: 'GET',
    path: '/account/identities',
    operationId: 'listIdentities',
    summary: "The caller's linked provider accounts and the providers they may link",
    tags,
    permission: 'signedIn',
    responses: {
      200: z.object({ items: z.array(identitySchema), linkable: z.array(offeredProviderSchema) }),
    },
  }),
  unlink: defineContract({
    method: 'DELETE',
    path: '/account/identities/:identityId',
    operationId: 'unlinkIdentity',
    summary: "Removes one of the caller's linked provider accounts (not the last way to sign in)",
    tags,
    permission: 'signedIn',
    params: uuidParam('identityId'),
    responses: { 200: messageSchema },
  }),
  list: defineContract({
    method: 'GET',
    path: '/admin/sign-in-providers',
    operationId: 'listSignInProviders',
    summary: 'The configured sign-in providers (secrets never listed) and the redirect URI to register',
    tags,
    permission: { action: 'read', subject: 'Setting' },
    responses: { 200: signInProviderListSchema },
  }),
  create: defineContract({
    method: 'POST',
    path: '/admin/sign-in-providers',
    operationId: 'createSignInProvider',
    summary: 'Adds a provider; its discovery document is fetched first',
    tags,
    permission: manage,
    body: signInProviderBodySchema,
    responses: { 201: signInProviderSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/admin/sign-in-providers/:signInProviderId',
    operationId: 'updateSignInProvider',
    summary: 'Changes a provider (an empty secret keeps the stored one)',
    tags,
    permission: manage,
    params: uuidParam('signInProviderId'),
    body: signInProviderBodySchema,
    responses: { 200: signInProviderSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/admin/sign-in-providers/:signInProviderId',
    operationId: 'deleteSignInProvider',
    summary: 'Removes a provider; accounts linked through it keep their other ways to sign in',
    tags,
    permission: manage,
    params: uuidParam('signInProviderId'),
    responses: { 200: messageSchema },
  }),
};
