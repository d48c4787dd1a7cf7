import { useQuery } from '@tanstack/react-query';
import {
  type SettingsTab,
  type SettingsValues,
  type SystemSettings,
  systemSettingsContracts,
} from '@werkwissen/shared';
import { useReloadConfig } from '../app/config-context.tsx';
import { call, putFile } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the system settings. */
export const settingsKeys = {
  all: ['system-settings'] as const,
};

export function useSystemSettings() {
  return useQuery({
    queryKey: settingsKeys.all,
    queryFn: () => call(systemSettingsContracts.get),
  });
}

const UPDATE = {
  general: systemSettingsContracts.updateGeneral,
  signUp: systemSettingsContracts.updateSignUp,
  plans: systemSettingsContracts.updatePlans,
  branding: systemSettingsContracts.updateBranding,
  activityLog: systemSettingsContracts.updateActivityLog,
  mailBudget: systemSettingsContracts.updateMailBudget,
} as const;

export interface TabChange<T extends SettingsTab = SettingsTab> {
  tab: T;
  values: SettingsValues[T];
}

/**
 * Saves one tab. The public configuration (title, colours, logo, sign-up) is loaded again before the change counts
 * as done, so that the app shows it without a reload.
 */
export function useSaveSettings(callbacks?: MutationCallbacks<TabChange, SystemSettings>) {
  const reloadConfig = useReloadConfig();
  return useApiMutation(
    {
      mutationFn: async ({ tab, values }: TabChange) => {
        const saved = await call(UPDATE[tab] as typeof systemSettingsContracts.updateGeneral, {
          // biome-ignore lint/plugin: the values belong to the tab's contract, picked at run time
          body: values as never,
        });
        await reloadConfig();
        return saved;
      },
      success: (t) => t('admin.settings.saved'),
      update: (queryClient, data) => queryClient.setQueryData(settingsKeys.all, data),
      invalidates: () => [settingsKeys.all],
    },
    callbacks,
  );
}

/** The logo as one multipart part `file`; the server sniffs its type and size. */
const uploadLogo = (file: File): Promise<SystemSettings> => putFile(systemSettingsContracts.uploadLogo, file);

export function useUploadLogo(callbacks?: MutationCallbacks<File, SystemSettings>) {
  const reloadConfig = useReloadConfig();
  return useApiMutation(
    {
      mutationFn: async (file: File) => {
        const saved = await uploadLogo(file);
        await reloadConfig();
        return saved;
      },
      success: (t) => t('admin.settings.logoSaved'),
      update: (queryClient, data) => queryClient.setQueryData(settingsKeys.all, data),
      invalidates: () => [settingsKeys.all],
    },
    callbacks,
  );
}

export function useRemoveLogo(callbacks?: MutationCallbacks<void, SystemSettings>) {
  const reloadConfig = useReloadConfig();
  return useApiMutation(
    {
      mutationFn: async () => {
        const saved = await call(systemSettingsContracts.removeLogo);
        await reloadConfig();
        return saved;
      },
      success: (t) => t('admin.settings.logoRemoved'),
      update: (queryClient, data) => queryClient.setQueryData(settingsKeys.all, data),
      invalidates: () => [settingsKeys.all],
    },
    callbacks,
  );
}
