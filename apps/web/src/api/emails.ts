import { useQuery } from '@tanstack/react-query';
import { adminContracts, type OUTBOX_STATUSES } from '@werkwissen/shared';
import type { ListQuery } from '../components/data-table.tsx';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** Query keys of the e-mail outbox. */
export const emailKeys = {
  all: ['emails'] as const,
  list: (status: OutboxStatus | '') => [...emailKeys.all, 'list', status] as const,
  detail: (emailId: string) => [...emailKeys.all, 'detail', emailId] as const,
  senders: () => [...emailKeys.all, 'senders'] as const,
};

/** The data table's source for the outbox, optionally of one status. */
export const emailTable = (status: OutboxStatus | '') => ({
  queryKey: emailKeys.list(status),
  fetchPage: (page: ListQuery) =>
    call(adminContracts.listEmails, { query: { ...page, status: status || undefined } }),
});

/** One mail with its text and HTML; reloaded while it is still queued. */
export function useEmail(emailId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: emailKeys.detail(emailId),
    queryFn: () => call(adminContracts.getEmail, { params: { emailId } }),
    enabled,
    refetchInterval: (query) => (query.state.data?.status === 'queued' ? 2000 : false),
  });
}

/** Sends a mail again as a new outbox row; the answer names it. */
export function useResendEmail(callbacks?: MutationCallbacks<string, { message: string; emailId: string }>) {
  return useApiMutation(
    {
      mutationFn: (emailId: string) => call(adminContracts.resendEmail, { params: { emailId } }),
      success: (_t, data) => data.message,
      invalidates: () => [emailKeys.all],
    },
    callbacks,
  );
}

/** The data table's source for the companies that sent budgeted mails in the last day. */
export const emailSenderTable = {
  queryKey: emailKeys.senders(),
  fetchPage: (page: ListQuery) => call(adminContracts.listEmailSenders, { query: page }),
};

/**
 * Shows the real single-use link of a mail that could not be sent, confirmed with a fresh authenticator code. Nothing
 * is reloaded: the mail itself did not change (and each read of it is a line in the activity log).
 */
export function useRevealEmailLink(
  callbacks?: MutationCallbacks<{ emailId: string; code: string }, { link: string }>,
) {
  return useApiMutation(
    {
      mutationFn: ({ emailId, code }: { emailId: string; code: string }) =>
        call(adminContracts.revealEmailLink, { params: { emailId }, body: { code } }),
      invalidates: () => [],
    },
    callbacks,
  );
}
