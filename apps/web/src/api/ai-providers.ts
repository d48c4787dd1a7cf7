import { useQuery } from '@tanstack/react-query';
import {
  type AiProviderBody,
  type AiProviderSettings,
  aiProviderContracts,
  type ConnectionTest,
  type ModelProvider,
} from '@werkwissen/shared';
import { chatKeys } from './chats.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the company's language-model providers. */
export const aiProviderKeys = {
  all: ['ai-providers'] as const,
  list: () => [...aiProviderKeys.all, 'list'] as const,
};

export function useAiProviders() {
  return useQuery({ queryKey: aiProviderKeys.list(), queryFn: () => call(aiProviderContracts.list) });
}

/** Saves a provider's settings; the chat screen's choice of providers follows. */
export function useSaveAiProvider(
  provider: ModelProvider,
  callbacks?: MutationCallbacks<AiProviderBody, AiProviderSettings>,
) {
  return useApiMutation(
    {
      mutationFn: (body: AiProviderBody) => call(aiProviderContracts.save, { params: { provider }, body }),
      success: (t) => t('aiProviders.saved', { provider: t(`aiProviders.providers.${provider}`) }),
      invalidates: () => [aiProviderKeys.all, chatKeys.options()],
    },
    callbacks,
  );
}

/** Removes a provider; the chats that answered with it fall back to the built-in answerer. */
export function useRemoveAiProvider(callbacks?: MutationCallbacks<ModelProvider, unknown>) {
  return useApiMutation(
    {
      mutationFn: (provider: ModelProvider) => call(aiProviderContracts.remove, { params: { provider } }),
      success: (t, _data, provider) =>
        t('aiProviders.removed', { provider: t(`aiProviders.providers.${provider}`) }),
      invalidates: () => [aiProviderKeys.all, chatKeys.all],
    },
    callbacks,
  );
}

type TestBody = Omit<AiProviderBody, 'model'> & { model?: string };

/** Tests a connection with what is typed; the form shows the outcome beside the button (`claimError`). */
export function useTestAiProvider(
  provider: ModelProvider,
  callbacks?: MutationCallbacks<TestBody, ConnectionTest>,
) {
  return useApiMutation(
    {
      mutationFn: (body: TestBody) => call(aiProviderContracts.test, { params: { provider }, body }),
      invalidates: () => [],
    },
    callbacks,
  );
}
