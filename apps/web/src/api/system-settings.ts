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

/** Each tab's save, typed by its own contract. */
const UPDATE: { [T in SettingsTab]: (values: SettingsValues[T]) => Promise<SystemSettings> } = {
  general: (body) => call(systemSettingsContracts.updateGeneral, { body }),
  signUp: (body) => call(systemSettingsContracts.updateSignUp, { body }),
  plans: (body) => call(systemSettingsContracts.updatePlans, { body }),
  branding: (body) => call(systemSettingsContracts.updateBranding, { body }),
  activityLog: (body) => call(systemSettingsContracts.updateActivityLog, { body }),
  mailBudget: (body) => call(systemSettingsContracts.updateMailBudget, { body }),
};

export interface TabChange<T extends SettingsTab = SettingsTab> {
  tab: T;
  values: SettingsValues[T];
}

const saveTab = <T extends SettingsTab>({ tab, values }: TabChange<T>) => UPDATE[tab](values);

/**
 * Saves one tab. The public configuration (title, colours, logo, sign-up) is loaded again before the change counts
 * as done, so that the app shows it without a reload.
 */
export function useSaveSettings(callbacks?: MutationCallbacks<TabChange, SystemSettings>) {
  const reloadConfig = useReloadConfig();
  return useApiMutation(
    {
      mutationFn: async (change: TabChange) => {
        const saved = await saveTab(change);
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
