import { useQuery } from '@tanstack/react-query';
import {
  type createRoleBodySchema,
  type Role,
  roleContracts,
  type updateRoleBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { tableQuery } from './table-query.ts';

/** Query keys of the roles editor. */
export const roleKeys = {
  all: ['roles'] as const,
  lists: () => [...roleKeys.all, 'list'] as const,
  /** Every role, for the role pickers of the staff pages. */
  choices: () => [...roleKeys.all, 'choices'] as const,
  detail: (roleId: string) => [...roleKeys.all, 'detail', roleId] as const,
  holders: (roleId: string) => [...roleKeys.all, 'holders', roleId] as const,
};

/** The data table's source for the roles. */
export const roleTable = {
  queryKey: roleKeys.lists(),
  fetchPage: (query: ListQuery) =>
    call(roleContracts.list, { query: tableQuery(roleContracts.list.querystring, query) }),
};

/** The data table's source for the holders of one role. */
export const roleHolderTable = (roleId: string) => ({
  queryKey: roleKeys.holders(roleId),
  fetchPage: (query: ListQuery) => call(roleContracts.holders, { params: { roleId }, query }),
});

export function useRole(roleId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: roleKeys.detail(roleId),
    queryFn: () => call(roleContracts.get, { params: { roleId } }),
    enabled,
  });
}

/** Every role (there are few), for choosing a staff member's roles. */
export function useRoleChoices() {
  return useQuery({
    queryKey: roleKeys.choices(),
    queryFn: () => call(roleContracts.list, { query: { page: 1, pageSize: 100 } }),
    select: (page) => page.items,
  });
}

export function useCreateRole(callbacks?: MutationCallbacks<z.input<typeof createRoleBodySchema>, Role>) {
  return useApiMutation(
    {
      mutationFn: (body: z.input<typeof createRoleBodySchema>) => call(roleContracts.create, { body }),
      success: (t) => t('admin.roles.created'),
      invalidates: () => [roleKeys.all],
    },
    callbacks,
  );
}

interface Update {
  roleId: string;
  body: z.input<typeof updateRoleBodySchema>;
}

export function useUpdateRole(callbacks?: MutationCallbacks<Update, Role>) {
  return useApiMutation(
    {
      mutationFn: ({ roleId, body }: Update) => call(roleContracts.update, { params: { roleId }, body }),
      success: (t) => t('admin.roles.saved'),
      invalidates: () => [roleKeys.all],
    },
    callbacks,
  );
}

export function useResetRole(callbacks?: MutationCallbacks<string, Role>) {
  return useApiMutation(
    {
      mutationFn: (roleId: string) => call(roleContracts.reset, { params: { roleId } }),
      success: (t) => t('admin.roles.resetDone'),
      invalidates: () => [roleKeys.all],
    },
    callbacks,
  );
}

export function useDeleteRole(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (roleId: string) => call(roleContracts.remove, { params: { roleId } }),
      success: (t) => t('admin.roles.deleted'),
      invalidates: () => [roleKeys.all],
    },
    callbacks,
  );
}
