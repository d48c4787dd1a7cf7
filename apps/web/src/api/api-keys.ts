import { apiKeyContracts, type createApiKeyBodySchema } from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { tableQuery } from './table-query.ts';

/** Query keys of the signed-in user's personal API keys. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  lists: () => [...apiKeyKeys.all, 'list'] as const,
};

/** The data table's source for the API keys. */
export const apiKeyTable = {
  queryKey: apiKeyKeys.lists(),
  fetchPage: (query: ListQuery) =>
    call(apiKeyContracts.list, { query: tableQuery(apiKeyContracts.list.querystring, query) }),
};

type Create = z.input<typeof createApiKeyBodySchema>;

/** Creates a key. Its secret is the success message: the tab shows it once, instead of a snackbar. */
export function useCreateApiKey(callbacks?: MutationCallbacks<Create, { token: string }>) {
  return useApiMutation(
    {
      mutationFn: (body: Create) => call(apiKeyContracts.create, { body }),
      invalidates: () => [apiKeyKeys.all],
    },
    callbacks,
  );
}

export function useRevokeApiKey(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (apiKeyId: string) => call(apiKeyContracts.revoke, { params: { apiKeyId } }),
      success: (t) => t('pages.apiKeys.revoked'),
      invalidates: () => [apiKeyKeys.all],
    },
    callbacks,
  );
}
