import { useQuery } from '@tanstack/react-query';
import { type MicrosoftApp, type MicrosoftAppBody, microsoftConnectorContracts } from '@werkwissen/shared';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** The operator's Entra app for Microsoft 365 connectors. */
export const microsoftAppKeys = { app: ['microsoft-app'] as const };

export function useMicrosoftApp() {
  return useQuery({
    queryKey: microsoftAppKeys.app,
    queryFn: () => call(microsoftConnectorContracts.getApp),
  });
}

export function useSaveMicrosoftApp(callbacks?: MutationCallbacks<MicrosoftAppBody, MicrosoftApp>) {
  return useApiMutation(
    {
      mutationFn: (body: MicrosoftAppBody) => call(microsoftConnectorContracts.saveApp, { body }),
      success: (t) => t('admin.settings.microsoft.saved'),
      invalidates: () => [microsoftAppKeys.app],
    },
    callbacks,
  );
}
