import { useQuery } from '@tanstack/react-query';
import {
  type EmailConnectionTestBody,
  type EmailSetting,
  type EmailSettingCreate,
  type EmailSettingUpdate,
  emailSettingContracts,
  type InboundFate,
} from '@werkwissen/shared';
import type { ListQuery } from '../components/data-table.tsx';
import { chatKeys } from './chats.ts';
import { ApiError, call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the company's e-mail settings. */
export const emailSettingKeys = {
  all: ['email-settings'] as const,
  /** The settings page's table, paged in the browser. */
  table: () => [...emailSettingKeys.all, 'table'] as const,
  list: () => [...emailSettingKeys.all, 'list'] as const,
  /** A mailbox's incoming mails, optionally of one fate. */
  mails: (settingId: string, fate: InboundFate | '') =>
    [...emailSettingKeys.all, 'mails', settingId, fate] as const,
};

/** The settings page's table: the list is short and unpaged on the server, so it is searched and paged here. */
export const emailSettingTable = {
  queryKey: emailSettingKeys.table(),
  fetchPage: async (query: ListQuery) => {
    const { items } = await call(emailSettingContracts.list);
    const q = query.q?.toLocaleLowerCase();
    const found = q
      ? items.filter((s) =>
          [s.fromEmail, s.divisionName, ...s.allowedEmails].some((v) => v.toLocaleLowerCase().includes(q)),
        )
      : items;
    const start = (query.page - 1) * query.pageSize;
    return { items: found.slice(start, start + query.pageSize), total: found.length };
  },
};

/** One setting of the company, from the (short) list; null when there is none with this id. */
export function useEmailSetting(settingId: string) {
  return useQuery({
    queryKey: emailSettingKeys.list(),
    queryFn: () => call(emailSettingContracts.list),
    select: (list) => list.items.find((s) => s.id === settingId) ?? null,
  });
}

/** The data table's source for a mailbox's incoming mails, newest first, optionally of one fate. */
export const inboundMailTable = (settingId: string, fate: InboundFate | '') => ({
  queryKey: emailSettingKeys.mails(settingId, fate),
  fetchPage: (page: ListQuery) =>
    call(emailSettingContracts.mails, { params: { settingId }, query: { ...page, fate: fate || undefined } }),
});

const SMTP_FIELDS = [
  'smtpHost',
  'smtpPort',
  'imapHost',
  'imapPort',
  'smtpEmail',
  'userName',
  'password',
  'security',
];

/** Whether a refused save was about the SMTP details (the spec's "Failed to add new smtp."). */
const aboutSmtp = (error: unknown) =>
  error instanceof ApiError && error.fieldErrors.some((f) => SMTP_FIELDS.includes(f.field));

/** A change of a saved setting (its id and the change's body), or a new setting. */
type Save =
  | { settingId: string; body: EmailSettingUpdate }
  | { settingId?: undefined; body: EmailSettingCreate };

/** Adds or changes a setting, with the spec's messages ("Email added successfully!" and the failures). */
export function useSaveEmailSetting(callbacks?: MutationCallbacks<Save, EmailSetting>) {
  return useApiMutation(
    {
      mutationFn: (save: Save) =>
        save.settingId === undefined
          ? call(emailSettingContracts.create, { body: save.body })
          : call(emailSettingContracts.update, { params: { settingId: save.settingId }, body: save.body }),
      success: (t, _setting, { settingId }) =>
        t(settingId ? 'emailSettings.messages.saved' : 'emailSettings.messages.added'),
      failure: (t, error) =>
        error instanceof ApiError && error.code === 'PLAN_LIMIT_REACHED'
          ? t('errors.PLAN_LIMIT_REACHED', { ...error.details })
          : t(aboutSmtp(error) ? 'emailSettings.messages.smtpFailed' : 'emailSettings.messages.addFailed'),
      invalidates: () => [emailSettingKeys.all, chatKeys.all],
    },
    callbacks,
  );
}

export function useDeleteEmailSetting(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (settingId: string) => call(emailSettingContracts.remove, { params: { settingId } }),
      success: (t) => t('emailSettings.messages.deleted'),
      invalidates: () => [emailSettingKeys.all],
    },
    callbacks,
  );
}

/** "Test connection": the result is shown in the form, not in a snackbar. */
export function useTestEmailConnection() {
  return useApiMutation({
    mutationFn: (body: EmailConnectionTestBody) => call(emailSettingContracts.test, { body }),
    invalidates: () => [],
  });
}
