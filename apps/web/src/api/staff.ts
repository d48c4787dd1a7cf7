import { useQuery } from '@tanstack/react-query';
import {
  type inviteStaffBodySchema,
  type StaffMember,
  staffContracts,
  type updateStaffBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { roleKeys } from './roles.ts';
import { filterValue, tableQuery } from './table-query.ts';

/** Query keys of the operator's users. */
export const staffKeys = {
  all: ['staff'] as const,
  lists: () => [...staffKeys.all, 'list'] as const,
  list: (status: string) => [...staffKeys.lists(), status] as const,
  detail: (staffId: string) => [...staffKeys.all, 'detail', staffId] as const,
};

/** A staff member's change also changes who holds which role. */
const staffChanged = () => [staffKeys.all, roleKeys.all];

/** The data table's source for the staff list, filtered by status ('' for all). */
export const staffTable = (status: string) => ({
  queryKey: staffKeys.list(status),
  fetchPage: (query: ListQuery) =>
    call(staffContracts.list, {
      query: {
        ...tableQuery(staffContracts.list.querystring, query),
        status: filterValue(staffContracts.list.querystring.shape.status, status),
      },
    }),
});

export function useStaffMember(staffId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: staffKeys.detail(staffId),
    queryFn: () => call(staffContracts.get, { params: { staffId } }),
    enabled,
  });
}

/** Adds a staff member; the server mails the invitation. */
export function useInviteStaff(
  callbacks?: MutationCallbacks<z.input<typeof inviteStaffBodySchema>, StaffMember>,
) {
  return useApiMutation(
    {
      mutationFn: (body: z.input<typeof inviteStaffBodySchema>) => call(staffContracts.invite, { body }),
      success: (t) => t('admin.staff.invited'),
      invalidates: staffChanged,
    },
    callbacks,
  );
}

interface Update {
  staffId: string;
  body: z.input<typeof updateStaffBodySchema>;
}

export function useUpdateStaff(callbacks?: MutationCallbacks<Update, StaffMember>) {
  return useApiMutation(
    {
      mutationFn: ({ staffId, body }: Update) => call(staffContracts.update, { params: { staffId }, body }),
      success: (t) => t('admin.staff.saved'),
      invalidates: staffChanged,
    },
    callbacks,
  );
}

export function useDeactivateStaff(callbacks?: MutationCallbacks<string, StaffMember>) {
  return useApiMutation(
    {
      mutationFn: (staffId: string) => call(staffContracts.deactivate, { params: { staffId } }),
      success: (t) => t('admin.staff.deactivated'),
      invalidates: staffChanged,
    },
    callbacks,
  );
}

export function useReactivateStaff(callbacks?: MutationCallbacks<string, StaffMember>) {
  return useApiMutation(
    {
      mutationFn: (staffId: string) => call(staffContracts.reactivate, { params: { staffId } }),
      success: (t) => t('admin.staff.reactivated'),
      invalidates: staffChanged,
    },
    callbacks,
  );
}

export function useDeleteStaff(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (staffId: string) => call(staffContracts.remove, { params: { staffId } }),
      success: (t) => t('admin.staff.deleted'),
      invalidates: staffChanged,
    },
    callbacks,
  );
}

/** Mails a new invitation; the server's answer says so. */
export function useResendStaffInvitation(callbacks?: MutationCallbacks<string, { message: string }>) {
  return useApiMutation(
    {
      mutationFn: (staffId: string) => call(staffContracts.resendInvitation, { params: { staffId } }),
      success: (_t, res) => res.message,
      invalidates: () => [],
    },
    callbacks,
  );
}
