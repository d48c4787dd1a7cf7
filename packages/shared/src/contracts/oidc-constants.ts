/**
 * The sign-in providers' constants, apart from their contracts: the sign-in pages import these without loading zod.
 */

/** The sign-in pages that may offer a provider's button. */
export const OIDC_AREAS = ['user', 'employee', 'admin'] as const;
export type OidcArea = (typeof OIDC_AREAS)[number];
export const SIGN_IN_PROVIDER_KINDS = ['google', 'oidc'] as const;
/** The issuer of Google's ID tokens (and its discovery document's base). */
export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Google's button script ("Sign in with Google"), loaded by a sign-in page that shows a Google provider. */
export const GOOGLE_BUTTON_SCRIPT = 'https://accounts.google.com/gsi/client';
/** What the script loads in turn (its frames, requests and styles), for the Content-Security-Policy. */
export const GOOGLE_BUTTON_ORIGIN_PATH = 'https://accounts.google.com/gsi/';
/** The id under which the environment's Google client (GOOGLE_SIGNIN_ENABLED) is offered when no stored one exists. */
export const ENVIRONMENT_GOOGLE_ID = 'google';
