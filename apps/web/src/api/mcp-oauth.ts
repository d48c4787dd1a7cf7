import { useQuery } from '@tanstack/react-query';
import { mcpOAuthContracts } from '@werkwissen/shared';
import type { ListQuery } from '../components/data-table.tsx';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of an MCP client's authorization request. */
export const oauthConsentKeys = {
  all: ['oauth-consent'] as const,
  one: (uid: string) => [...oauthConsentKeys.all, uid] as const,
};

/** What the MCP client of this authorization asks (read once: the answer ends the interaction). */
export function useOAuthConsent(uid: string) {
  return useQuery({
    queryKey: oauthConsentKeys.one(uid),
    queryFn: () => call(mcpOAuthContracts.consent, { params: { uid } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Allows or denies; the answer says where the browser goes next (back to the client, through the server). */
export function useAnswerOAuthConsent(
  uid: string,
  callbacks?: MutationCallbacks<boolean, { redirectTo: string }>,
) {
  return useApiMutation(
    {
      mutationFn: (allow: boolean) => call(mcpOAuthContracts.answer, { params: { uid }, body: { allow } }),
      invalidates: () => [],
    },
    callbacks,
  );
}

/** Query keys of the apps the signed-in user allowed (OAuth grants of the MCP authorization server). */
export const connectedAppKeys = {
  all: ['connected-apps'] as const,
  lists: () => [...connectedAppKeys.all, 'list'] as const,
};

/** The data table's source for the connected apps. */
export const connectedAppTable = {
  queryKey: connectedAppKeys.lists(),
  // Newest first, always: the list takes no sort or search.
  fetchPage: ({ page, pageSize }: ListQuery) =>
    call(mcpOAuthContracts.listApps, { query: { page, pageSize } }),
};

/** Revokes an app: its access ends at once, and it must ask again. */
export function useRevokeConnectedApp(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (grantId: string) => call(mcpOAuthContracts.revokeApp, { params: { grantId } }),
      success: (t) => t('pages.connectedApps.revoked'),
      invalidates: () => [connectedAppKeys.all],
    },
    callbacks,
  );
}
