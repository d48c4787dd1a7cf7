import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Connector,
  type ConnectorCreate,
  type ConnectorUpdate,
  connectorContracts,
  type GoogleConsentBody,
  googleConnectorContracts,
  type MicrosoftConsentBody,
  microsoftConnectorContracts,
} from '@werkwissen/shared';
import { useRef } from 'react';
import { dashboardKeys } from './dashboard.ts';
import { divisionKeys } from './divisions.ts';
import { fileKeys } from './files.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { searchKeys } from './search.ts';

/** Query keys of a division's connectors. */
export const connectorKeys = {
  all: ['connectors'] as const,
  list: (divisionId: string) => [...connectorKeys.all, divisionId] as const,
};

const busy = (items: Connector[] | undefined) => (items ?? []).some((c) => c.syncState !== 'idle');
/** When each connector's last sync ended: it changes also for a sync that began and ended between two reads. */
const syncsEnded = (items: Connector[]) => items.map((c) => `${c.id}:${c.lastSyncAt ?? ''}`).join(',');

/**
 * The division's connectors, reloaded every two seconds while a sync waits or runs; when the last one ends (seen
 * running, or only by its new end time: a quick sync can begin and end between two reads), the division's files
 * (which it added, changed or removed) reload too.
 */
export function useConnectors(divisionId: string) {
  const queryClient = useQueryClient();
  const wasBusy = useRef(false);
  const ended = useRef<string | null>(null);
  return useQuery({
    queryKey: connectorKeys.list(divisionId),
    queryFn: async () => {
      const { items } = await call(connectorContracts.list, { params: { divisionId } });
      const now = busy(items);
      const endedNow = syncsEnded(items);
      const syncEnded = ended.current !== null && endedNow !== ended.current;
      ended.current = endedNow;
      if (!now && (wasBusy.current || syncEnded))
        void queryClient
          .invalidateQueries({ queryKey: fileKeys.all })
          .then(() => queryClient.invalidateQueries({ queryKey: divisionKeys.all }));
      wasBusy.current = now;
      return items;
    },
    enabled: divisionId !== '',
    refetchInterval: (query) => (busy(query.state.data) ? 2000 : false),
  });
}

export function useConnect(divisionId: string, callbacks?: MutationCallbacks<ConnectorCreate, Connector>) {
  return useApiMutation(
    {
      mutationFn: (body: ConnectorCreate) =>
        call(connectorContracts.create, { params: { divisionId }, body }),
      success: (t) => t('connectors.messages.connected'),
      invalidates: () => [connectorKeys.all],
    },
    callbacks,
  );
}

/** Changes a connector's name, schedule, file types or WebDAV login (the server tries a new login first). */
export function useUpdateConnector(
  connectorId: string,
  callbacks?: MutationCallbacks<ConnectorUpdate, Connector>,
) {
  return useApiMutation(
    {
      mutationFn: (body: ConnectorUpdate) =>
        call(connectorContracts.update, { params: { connectorId }, body }),
      success: (t) => t('connectors.messages.saved'),
      invalidates: () => [connectorKeys.all],
    },
    callbacks,
  );
}

export type ConnectorAction = 'sync' | 'pause' | 'resume';
const ACTION_MESSAGE: Record<ConnectorAction, string> = {
  sync: 'connectors.messages.syncQueued',
  pause: 'connectors.messages.paused',
  resume: 'connectors.messages.resumed',
};

export function useConnectorAction() {
  return useApiMutation({
    mutationFn: ({ action, connectorId }: { action: ConnectorAction; connectorId: string }) =>
      call(connectorContracts[action], { params: { connectorId } }),
    success: (t, _data, { action }) => t(ACTION_MESSAGE[action]),
    invalidates: () => [connectorKeys.all],
  });
}

export function useDeleteConnector(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (connectorId: string) => call(connectorContracts.remove, { params: { connectorId } }),
      success: (t) => t('connectors.messages.removed'),
      invalidates: () => [connectorKeys.all, fileKeys.all, dashboardKeys.all, searchKeys.all],
    },
    callbacks,
  );
}

/** Where the consent page sends the browser back to remembers the division it was started for (this tab only). */
export const CONSENT_DIVISION_KEY = 'ww.consentDivision';

/** The connector kinds connected by OAuth consent at their vendor. */
export type ConsentKind = 'microsoft365' | 'googledrive';
export type ConsentBody = MicrosoftConsentBody | GoogleConsentBody;

/**
 * Starts connecting a Microsoft 365 or Google Drive folder: the server answers the address of the vendor's consent
 * page, and the browser leaves for it (it comes back to the kind's callback page).
 */
export function useConsent(
  divisionId: string,
  callbacks?: MutationCallbacks<{ kind: ConsentKind; body: ConsentBody }, { authorizationUrl: string }>,
) {
  return useApiMutation(
    {
      mutationFn: ({ kind, body }: { kind: ConsentKind; body: ConsentBody }) =>
        kind === 'googledrive'
          ? call(googleConnectorContracts.consent, {
              params: { divisionId },
              body: body as GoogleConsentBody,
            })
          : call(microsoftConnectorContracts.consent, {
              params: { divisionId },
              body: body as MicrosoftConsentBody,
            }),
      invalidates: () => [],
    },
    {
      ...callbacks,
      onSuccess: ({ authorizationUrl }) => {
        sessionStorage.setItem(CONSENT_DIVISION_KEY, divisionId);
        window.location.assign(authorizationUrl);
      },
    },
  );
}

/** Ends the consent with what the vendor sent back: the connector is stored and its first sync starts. */
export function useCompleteConsent(
  kind: ConsentKind,
  callbacks?: MutationCallbacks<{ code: string; state: string }, Connector>,
) {
  return useApiMutation(
    {
      mutationFn: (body: { code: string; state: string }) =>
        call((kind === 'googledrive' ? googleConnectorContracts : microsoftConnectorContracts).complete, {
          body,
        }),
      success: (t) => t('connectors.messages.connected'),
      invalidates: () => [connectorKeys.all],
    },
    callbacks,
  );
}
