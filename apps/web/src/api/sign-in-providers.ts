import { useQuery } from '@tanstack/react-query';
import type {
  LinkedIdentity,
  OfferedProvider,
  oidcContracts,
  SignInProvider,
  SignInProviderBody,
} from '@werkwissen/shared';
import { call, endpoint } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/**
 * Sign-in providers: the user's linked accounts and the operator's settings (the sign-in pages' calls are in
 * `sign-in-flow.ts`, which loads without the query client).
 */
const MANAGE = { action: 'update', subject: 'Setting' } as const;
const endpoints = {
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
