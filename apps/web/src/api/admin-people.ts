import { useQuery } from '@tanstack/react-query';
import {
  type AdminCompany,
  adminPeopleContracts as c,
  type createDataManagerBodySchema,
  type DataManager,
  type DataManagerStatus,
  type EmployeeImportResult,
  type MeResponse,
  type updateDataManagerBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { call, changingSession } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { tableQuery } from './table-query.ts';

/** Query keys of the back office's people: data managers, public users and companies. */
export const dataManagerKeys = {
  all: ['admin', 'dataManagers'] as const,
  list: (status: DataManagerStatus | '') => [...dataManagerKeys.all, 'list', status] as const,
  detail: (id: string) => [...dataManagerKeys.all, 'detail', id] as const,
};
export const publicUserKeys = {
  all: ['admin', 'publicUsers'] as const,
  list: () => [...publicUserKeys.all, 'list'] as const,
  detail: (id: string) => [...publicUserKeys.all, 'detail', id] as const,
};
export const companyKeys = {
  all: ['admin', 'companies'] as const,
  list: (suspended: '' | 'true' | 'false') => [...companyKeys.all, 'list', suspended] as const,
};

/** A data manager's change shows in the lists of both data managers and companies. */
const peopleChanged = () => [dataManagerKeys.all, companyKeys.all];

/** The data table's source for the data managers, optionally of one status. */
export const dataManagerTable = (status: DataManagerStatus | '') => ({
  queryKey: dataManagerKeys.list(status),
  fetchPage: (query: ListQuery) =>
    call(c.listDataManagers, {
      query: { ...tableQuery(c.listDataManagers.querystring, query), status: status || undefined },
    }),
});

export const publicUserTable = {
  queryKey: publicUserKeys.list(),
  fetchPage: (query: ListQuery) =>
    call(c.listPublicUsers, { query: tableQuery(c.listPublicUsers.querystring, query) }),
};

export const companyTable = (suspended: '' | 'true' | 'false') => ({
  queryKey: companyKeys.list(suspended),
  fetchPage: (query: ListQuery) =>
    call(c.listCompanies, {
      query: { ...tableQuery(c.listCompanies.querystring, query), suspended: suspended || undefined },
    }),
});

export function useDataManager(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: dataManagerKeys.detail(id),
    queryFn: () => call(c.getDataManager, { params: { dataManagerId: id } }),
    enabled,
  });
}

export function usePublicUser(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: publicUserKeys.detail(id),
    queryFn: () => call(c.getPublicUser, { params: { publicUserId: id } }),
    enabled,
  });
}

/** Adds a data manager with a company and a trial; the server mails the invitation. */
export function useCreateDataManager(
  callbacks?: MutationCallbacks<z.input<typeof createDataManagerBodySchema>, DataManager>,
) {
  return useApiMutation(
    {
      mutationFn: (body: z.input<typeof createDataManagerBodySchema>) => call(c.createDataManager, { body }),
      success: (t, data) => t('admin.users.invited', { email: data.email }),
      invalidates: peopleChanged,
    },
    callbacks,
  );
}

interface Update {
  id: string;
  body: z.input<typeof updateDataManagerBodySchema>;
}

export function useUpdateDataManager(callbacks?: MutationCallbacks<Update, DataManager>) {
  return useApiMutation(
    {
      mutationFn: ({ id, body }: Update) =>
        call(c.updateDataManager, { params: { dataManagerId: id }, body }),
      success: (t) => t('admin.users.saved'),
      invalidates: peopleChanged,
    },
    callbacks,
  );
}

/** Deactivates (`active: false`) or reactivates a data manager. */
export function useSetDataManagerActive(
  callbacks?: MutationCallbacks<{ id: string; active: boolean }, DataManager>,
) {
  return useApiMutation(
    {
      mutationFn: ({ id, active }: { id: string; active: boolean }) =>
        call(active ? c.reactivateDataManager : c.deactivateDataManager, { params: { dataManagerId: id } }),
      success: (t, _data, { active }) => t(active ? 'admin.users.reactivated' : 'admin.users.deactivated'),
      invalidates: peopleChanged,
    },
    callbacks,
  );
}

/** Deletes a data manager with their company; `confirmation` is the typed company name or e-mail. */
export function useDeleteDataManager(
  callbacks?: MutationCallbacks<{ id: string; confirmation: string }, unknown>,
) {
  return useApiMutation(
    {
      mutationFn: ({ id, confirmation }: { id: string; confirmation: string }) =>
        call(c.deleteDataManager, { params: { dataManagerId: id }, query: { confirmation } }),
      success: (t) => t('admin.users.deleted'),
      invalidates: peopleChanged,
    },
    callbacks,
  );
}

/** Imports data managers from CSV text. The import dialog reports the outcome row by row (`claimError`). */
export function useImportDataManagers(callbacks?: MutationCallbacks<string, EmployeeImportResult>) {
  return useApiMutation(
    {
      mutationFn: (csv: string) => call(c.importDataManagers, { body: { csv } }),
      invalidates: peopleChanged,
    },
    callbacks,
  );
}

/** Suspends a company (with `reason`) or resumes it (`reason: null`). */
export function useSetCompanySuspended(
  callbacks?: MutationCallbacks<{ id: string; reason: string | null }, AdminCompany>,
) {
  return useApiMutation(
    {
      mutationFn: ({ id, reason }: { id: string; reason: string | null }) =>
        reason === null
          ? call(c.resumeCompany, { params: { companyId: id } })
          : call(c.suspendCompany, { params: { companyId: id }, body: { reason } }),
      success: (t, _data, { reason }) =>
        t(reason === null ? 'admin.companies.resumed' : 'admin.companies.suspended'),
      invalidates: peopleChanged,
    },
    callbacks,
  );
}

/**
 * Starts or ends viewing the product as a user. The answer is the new session's `me`: the screen stores it and goes
 * to that user's home (the whole app reloads, so no cache of the other session survives).
 */
export function useImpersonation(callbacks?: MutationCallbacks<string | null, MeResponse>) {
  return useApiMutation(
    {
      mutationFn: (userId: string | null) =>
        changingSession(() =>
          userId ? call(c.startImpersonation, { body: { userId } }) : call(c.endImpersonation),
        ),
      invalidates: () => [],
    },
    callbacks,
  );
}
