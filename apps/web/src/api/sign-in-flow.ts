import type { OfferedProvider, OidcArea, oidcContracts } from '@werkwissen/shared';
import { buildUrl, call, endpoint } from './http.ts';

/**
 * What the sign-in pages ask of the providers: plain calls, not queries, so that these pages load without the query
 * client (the blank layout has none) and without the contract modules (endpoints typed by the contracts).
 */
const endpoints = {
  offered: endpoint<typeof oidcContracts.offered>({
    method: 'GET',
    path: '/auth/oidc/providers',
    permission: 'public',
  }),
  googleButton: endpoint<typeof oidcContracts.googleButton>({
    method: 'GET',
    path: '/auth/oidc/:providerId/google-button',
    permission: 'public',
  }),
  credential: endpoint<typeof oidcContracts.credential>({
    method: 'POST',
    path: '/auth/oidc/credential',
    permission: 'public',
  }),
};

/** The providers whose button an area's sign-in page shows. */
export async function fetchOfferedProviders(area: OidcArea): Promise<OfferedProvider[]> {
  return (await call(endpoints.offered, { query: { area } })).items;
}

/** Where a provider's button sends the browser: the server's start of the flow, which redirects to the provider. */
export function providerStartUrl(providerId: string, area: OidcArea, to: string | null): string {
  return buildUrl(`/auth/oidc/${providerId}/start`, undefined, { area, ...(to ? { to } : {}) });
}

/** Opens the flow of Google's button: the client id and nonce to initialise Google's script with. */
export function openGoogleButton(providerId: string, area: OidcArea, to: string | null) {
  return call(endpoints.googleButton, { params: { providerId }, query: { area, ...(to ? { to } : {}) } });
}

/** Hands the ID token Google's button gave the page to the server; answers where the browser goes next. */
export async function handOverCredential(credential: string): Promise<string> {
  return (await call(endpoints.credential, { body: { credential } })).location;
}
