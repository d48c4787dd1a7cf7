import { useQuery } from '@tanstack/react-query';
import {
  type WhatsAppConnection,
  type WhatsAppConnectionBody,
  type WhatsAppTest,
  type WhatsAppTestBody,
  whatsappContracts,
} from '@werkwissen/shared';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the company's WhatsApp connection. */
export const whatsappKeys = {
  all: ['whatsapp'] as const,
  connection: () => [...whatsappKeys.all, 'connection'] as const,
};

/** The connection (secrets masked), or before the first save a proposed verify token, with the webhook URL. */
export function useWhatsAppConnection() {
  return useQuery({ queryKey: whatsappKeys.connection(), queryFn: () => call(whatsappContracts.get) });
}

export function useSaveWhatsAppConnection(
  callbacks?: MutationCallbacks<WhatsAppConnectionBody, WhatsAppConnection>,
) {
  return useApiMutation(
    {
      mutationFn: (body: WhatsAppConnectionBody) => call(whatsappContracts.save, { body }),
      success: (t) => t('whatsapp.saved'),
      invalidates: () => [whatsappKeys.all],
    },
    callbacks,
  );
}

export function useDeleteWhatsAppConnection(callbacks?: MutationCallbacks<void, unknown>) {
  return useApiMutation(
    {
      mutationFn: () => call(whatsappContracts.remove),
      success: (t) => t('whatsapp.disconnected'),
      failure: (t) => t('whatsapp.disconnectFailed'),
      invalidates: () => [whatsappKeys.all],
    },
    callbacks,
  );
}

/** Asks Meta for the number with what is typed; the dialog shows the outcome beside its button. */
export function useTestWhatsAppConnection(callbacks?: MutationCallbacks<WhatsAppTestBody, WhatsAppTest>) {
  return useApiMutation(
    {
      mutationFn: (body: WhatsAppTestBody) => call(whatsappContracts.test, { body }),
      invalidates: () => [],
    },
    callbacks,
  );
}
