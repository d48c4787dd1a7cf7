import { useQuery } from '@tanstack/react-query';
import {
  type createEmployeeBodySchema,
  type Employee,
  type EmployeeImportResult,
  employeeContracts,
  type updateEmployeeBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { divisionKeys } from './divisions.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { tableQuery } from './table-query.ts';

/** Query keys of the company's employees. */
export const employeeKeys = {
  all: ['employees'] as const,
  lists: () => [...employeeKeys.all, 'list'] as const,
  detail: (employeeId: string) => [...employeeKeys.all, 'detail', employeeId] as const,
};

/** Employees change the divisions' employee counts. */
const employeesChanged = () => [employeeKeys.all, divisionKeys.all];

/** The data table's source for the employees. */
export const employeeTable = {
  queryKey: employeeKeys.lists(),
  fetchPage: (query: ListQuery) =>
    call(employeeContracts.list, { query: tableQuery(employeeContracts.list.querystring, query) }),
};

export function useEmployee(employeeId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: employeeKeys.detail(employeeId),
    queryFn: () => call(employeeContracts.get, { params: { employeeId } }),
    enabled,
  });
}

/** Adds an employee; the server mails the invitation. */
export function useCreateEmployee(
  callbacks?: MutationCallbacks<z.input<typeof createEmployeeBodySchema>, Employee>,
) {
  return useApiMutation(
    {
      mutationFn: (body: z.input<typeof createEmployeeBodySchema>) =>
        call(employeeContracts.create, { body }),
      success: (t) => t('messages.userAdded'),
      invalidates: employeesChanged,
    },
    callbacks,
  );
}

interface Update {
  employeeId: string;
  body: z.input<typeof updateEmployeeBodySchema>;
}

export function useUpdateEmployee(callbacks?: MutationCallbacks<Update, Employee>) {
  return useApiMutation(
    {
      mutationFn: ({ employeeId, body }: Update) =>
        call(employeeContracts.update, { params: { employeeId }, body }),
      success: (t) => t('pages.employees.saved'),
      invalidates: employeesChanged,
    },
    callbacks,
  );
}

export function useDeleteEmployee(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (employeeId: string) => call(employeeContracts.remove, { params: { employeeId } }),
      success: (t) => t('pages.employees.deleted'),
      invalidates: employeesChanged,
    },
    callbacks,
  );
}

/** Mails a new invitation; the server's answer says to whom. */
export function useResendInvitation(callbacks?: MutationCallbacks<string, { message: string }>) {
  return useApiMutation(
    {
      mutationFn: (employeeId: string) =>
        call(employeeContracts.resendInvitation, { params: { employeeId } }),
      success: (_t, res) => res.message,
      invalidates: () => [],
    },
    callbacks,
  );
}

/** Imports employees from CSV text. The import dialog reports the outcome row by row (`claimError`). */
export function useImportEmployees(callbacks?: MutationCallbacks<string, EmployeeImportResult>) {
  return useApiMutation(
    {
      mutationFn: (csv: string) => call(employeeContracts.import, { body: { csv } }),
      invalidates: employeesChanged,
    },
    callbacks,
  );
}
