import { useQuery } from '@tanstack/react-query';
import { mcpOAuthContracts } from '@werkwissen/shared';
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
