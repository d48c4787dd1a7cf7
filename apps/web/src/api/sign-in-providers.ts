import { useQuery } from '@tanstack/react-query';
import type {
  LinkedIdentity,
  OfferedProvider,
  OidcArea,
  oidcContracts,
  SignInProvider,
  SignInProviderBody,
} from '@werkwissen/shared';
import { buildUrl, call, endpoint } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/**
 * Sign-in providers: the buttons of the sign-in pages, the user's linked accounts and the operator's settings. The
 * sign-in page loads without the contract modules (zod), so its calls go through endpoints typed by the contracts.
 */
const MANAGE = { action: 'update', subject: 'Setting' } as const;
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
  identities: endpoint<typeof oidcContracts.identities>({
    method: 'GET',
    path: '/account/identities',
    permission: 'signedIn',
  }),
  startLink: endpoint<typeof oidcContracts.startLink>({
    method: 'POST',
    path: '/account/identities/:providerId/link',
    permission: 'signedIn',
  }),
  unlink: endpoint<typeof oidcContracts.unlink>({
    method: 'DELETE',
    path: '/account/identities/:identityId',
    permission: 'signedIn',
  }),
  list: endpoint<typeof oidcContracts.list>({
    method: 'GET',
    path: '/admin/sign-in-providers',
    permission: { action: 'read', subject: 'Setting' },
  }),
  create: endpoint<typeof oidcContracts.create>({
    method: 'POST',
    path: '/admin/sign-in-providers',
    permission: MANAGE,
  }),
  update: endpoint<typeof oidcContracts.update>({
    method: 'PUT',
    path: '/admin/sign-in-providers/:signInProviderId',
    permission: MANAGE,
  }),
  remove: endpoint<typeof oidcContracts.remove>({
    method: 'DELETE',
    path: '/admin/sign-in-providers/:signInProviderId',
    permission: MANAGE,
  }),
};

export const signInProviderKeys = {
  all: ['sign-in-providers'] as const,
  settings: () => [...signInProviderKeys.all, 'settings'] as const,
  identities: () => [...signInProviderKeys.all, 'identities'] as const,
};

/**
 * The providers whose button an area's sign-in page shows. A plain call, not a query: the sign-in pages load
 * without the query client (the blank layout has none).
 */
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

export function useIdentities() {
  return useQuery<{ items: LinkedIdentity[]; linkable: OfferedProvider[] }>({
    queryKey: signInProviderKeys.identities(),
    queryFn: () => call(endpoints.identities),
  });
}

/** Starts linking: the browser leaves for the provider and comes back to `to` (the security tab). */
export function useStartLink() {
  return useApiMutation(
    {
      mutationFn: (vars: { providerId: string; to: string }) =>
        call(endpoints.startLink, { params: { providerId: vars.providerId }, body: { to: vars.to } }),
      invalidates: () => [],
    },
    { onSuccess: ({ url }) => window.location.assign(url) },
  );
}

export function useUnlinkIdentity(callbacks?: MutationCallbacks<string, { message: string }>) {
  return useApiMutation(
    {
      mutationFn: (identityId: string) => call(endpoints.unlink, { params: { identityId } }),
      success: (t) => t('account.identities.unlinked'),
      invalidates: () => [signInProviderKeys.identities()],
    },
    callbacks,
  );
}

/** The operator's list of providers, with the redirect URI to register at each. */
export function useSignInProviders() {
  return useQuery<{ items: SignInProvider[]; callbackUrl: string }>({
    queryKey: signInProviderKeys.settings(),
    queryFn: () => call(endpoints.list),
  });
}

export function useSaveSignInProvider(
  callbacks?: MutationCallbacks<{ id: string | null; body: SignInProviderBody }, SignInProvider>,
) {
  return useApiMutation(
    {
      mutationFn: ({ id, body }: { id: string | null; body: SignInProviderBody }) =>
        id
          ? call(endpoints.update, { params: { signInProviderId: id }, body })
          : call(endpoints.create, { body }),
      success: (t) => t('admin.settings.signIn.oidc.saved'),
      invalidates: () => [signInProviderKeys.all],
    },
    callbacks,
  );
}

export function useDeleteSignInProvider(callbacks?: MutationCallbacks<string, { message: string }>) {
  return useApiMutation(
    {
      mutationFn: (id: string) => call(endpoints.remove, { params: { signInProviderId: id } }),
      success: (t) => t('admin.settings.signIn.oidc.deleted'),
      invalidates: () => [signInProviderKeys.all],
    },
    callbacks,
  );
}
