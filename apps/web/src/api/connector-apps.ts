import { useQuery } from '@tanstack/react-query';
import {
  type GoogleApp,
  type GoogleAppBody,
  googleConnectorContracts,
  type MicrosoftApp,
  type MicrosoftAppBody,
  microsoftConnectorContracts,
} from '@werkwissen/shared';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** The operator's OAuth apps that connectors consent to: Microsoft's Entra app, Google's OAuth client. */
export type AppKind = 'microsoft' | 'google';
export type ConnectorApp = MicrosoftApp | GoogleApp;
export type ConnectorAppBody = MicrosoftAppBody | GoogleAppBody;

export const connectorAppKeys = { app: (kind: AppKind) => ['connector-app', kind] as const };

export function useConnectorApp(kind: AppKind) {
  return useQuery<ConnectorApp>({
    queryKey: connectorAppKeys.app(kind),
    queryFn: () =>
      kind === 'google' ? call(googleConnectorContracts.getApp) : call(microsoftConnectorContracts.getApp),
  });
}

export function useSaveConnectorApp(
  kind: AppKind,
  callbacks?: MutationCallbacks<ConnectorAppBody, ConnectorApp>,
) {
  return useApiMutation(
    {
      mutationFn: (body: ConnectorAppBody): Promise<ConnectorApp> =>
        kind === 'google'
          ? call(googleConnectorContracts.saveApp, { body: body as GoogleAppBody })
          : call(microsoftConnectorContracts.saveApp, { body: body as MicrosoftAppBody }),
      success: (t) => t(`admin.settings.${kind}.saved`),
      invalidates: () => [connectorAppKeys.app(kind)],
    },
    callbacks,
  );
}
