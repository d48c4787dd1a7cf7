import { z } from 'zod';
import { defineContract, listOf, listQuerySchema } from './route-contract.ts';

/**
 * The sign-in and consent step of the MCP authorization server (OAuth 2.1, at /api/v1/oauth): the provider sends the
 * browser to `/oauth/interaction/{uid}` (its interaction cookie is scoped to that path), which opens the consent page;
 * the page reads what is asked and answers as the signed-in user. The protocol endpoints themselves (authorize, token,
 * register, revoke, metadata) are the standard ones, described by the server's metadata (RFC 8414, RFC 9728).
 */
const uidParam = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/) });
const tags = ['mcp'];
/** An access token is a personal credential like an API key: who may hold keys may connect an app. */
const permission = { action: 'manage', subject: 'ApiKey' } as const;
const redirect = z.null().meta({ description: 'A redirect (Location header); no body' });

export const oauthConsentSchema = z
  .object({
    /** The name the client registered with (its own claim, shown as such), else its client id. */
    clientName: z.string(),
    clientId: z.string(),
    /** Where the answer goes: the host of the client's redirect address. */
    redirectHost: z.string(),
    /** The MCP server the token will be valid for. */
    resource: z.string(),
    /** Who is signed in and would grant access. */
    email: z.string(),
    /** How long an access token lives, and a refresh, in seconds. */
    accessTokenSeconds: z.number().int(),
    refreshTokenSeconds: z.number().int(),
  })
  .meta({ id: 'OAuthConsent' });
export type OAuthConsent = z.infer<typeof oauthConsentSchema>;

export const oauthConsentAnswerSchema = z.strictObject({
  allow: z.boolean({ message: 'validation.invalid' }),
});
export const oauthConsentResultSchema = z
  .object({ redirectTo: z.string() })
  .meta({ id: 'OAuthConsentResult' });

/** An app the user allowed (a grant of the authorization server) and how long it may renew its access. */
export const connectedAppSchema = z
  .object({
    grantId: z.string(),
    clientId: z.string(),
    clientName: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ConnectedApp' });
export type ConnectedApp = z.infer<typeof connectedAppSchema>;

const grantParam = z.object({ grantId: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/) });

export const mcpOAuthContracts = {
  interaction: defineContract({
    method: 'GET',
    path: '/oauth/interaction/:uid',
    operationId: 'oauthInteraction',
    summary:
      'Where the authorization server sends the browser to sign in and consent: redirects to the consent page',
    tags,
    permission: 'public',
    params: uidParam,
    responses: { 302: redirect },
  }),
  consent: defineContract({
    method: 'GET',
    path: '/oauth/interaction/:uid/consent',
    operationId: 'getOAuthConsent',
    summary:
      'What an MCP client asks the signed-in user to allow (needs the interaction cookie of this browser)',
    tags,
    permission,
    params: uidParam,
    responses: { 200: oauthConsentSchema },
  }),
  answer: defineContract({
    method: 'POST',
    path: '/oauth/interaction/:uid/consent',
    operationId: 'answerOAuthConsent',
    summary: 'Allows or denies the MCP client as the signed-in user; answers where the browser goes next',
    tags,
    permission,
    params: uidParam,
    body: oauthConsentAnswerSchema,
    responses: { 200: oauthConsentResultSchema },
  }),
  listApps: defineContract({
    method: 'GET',
    path: '/oauth/apps',
    operationId: 'listConnectedApps',
    summary: 'The apps the signed-in user allowed to use the MCP server as them (OAuth grants)',
    tags,
    permission,
    querystring: listQuerySchema.pick({ page: true, pageSize: true }),
    responses: { 200: listOf(connectedAppSchema) },
  }),
  revokeApp: defineContract({
    method: 'DELETE',
    path: '/oauth/apps/:grantId',
    operationId: 'revokeConnectedApp',
    summary: 'Revokes an app: its grant and every access and refresh token issued under it end at once',
    tags,
    permission,
    params: grantParam,
    responses: { 204: z.null() },
  }),
};
