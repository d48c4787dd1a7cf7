import { useQuery } from '@tanstack/react-query';
import {
  type ErrorBody,
  type SettingsTab,
  type SettingsValues,
  type SystemSettings,
  systemSettingsContracts,
} from '@werkwissen/shared';
import { useReloadConfig } from '../app/config-context.tsx';
import { ApiError, buildUrl, call, readCookie, sendRenewing } from './http.ts';
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
async function uploadLogo(file: File): Promise<SystemSettings> {
  const res = await sendRenewing(() => {
    const form = new FormData();
    form.append('file', file, file.name);
    return fetch(buildUrl(systemSettingsContracts.uploadLogo.path), {
      method: 'PUT',
      headers: { accept: 'application/json', 'x-csrf-token': readCookie('ww_csrf') ?? '' },
      body: form,
      credentials: 'same-origin',
    });
  });
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const err = (body as ErrorBody | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'INTERNAL', err?.message ?? '', err?.details);
  }
  return body as SystemSettings;
}

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
