import { useQuery } from '@tanstack/react-query';
import { divisionContracts } from '@werkwissen/shared';
import { chatKeys } from './chats.ts';
import { dashboardKeys } from './dashboard.ts';
import { employeeKeys } from './employees.ts';
import { fileKeys } from './files.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { searchKeys } from './search.ts';

/** Query keys of the divisions (one list, with the company's storage). */
export const divisionKeys = {
  all: ['divisions'] as const,
  list: () => [...divisionKeys.all, 'list'] as const,
};

/** Everything that shows a division's name: renaming or deleting it makes these stale. */
const showingDivisions = () => [
  divisionKeys.all,
  fileKeys.all,
  employeeKeys.all,
  chatKeys.all,
  searchKeys.all,
];

/** The divisions the user may see, with their counts and the company's storage. */
export function useDivisions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: divisionKeys.list(), queryFn: () => call(divisionContracts.list), enabled });
}

export function useCreateDivision(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (name: string) => call(divisionContracts.create, { body: { name } }),
      success: (t) => t('pages.divisions.added'),
      invalidates: () => [divisionKeys.all],
    },
    callbacks,
  );
}

interface Rename {
  divisionId: string;
  name: string;
}

export function useRenameDivision(callbacks?: MutationCallbacks<Rename, unknown>) {
  return useApiMutation(
    {
      mutationFn: ({ divisionId, name }: Rename) =>
        call(divisionContracts.rename, { params: { divisionId }, body: { name } }),
      success: (t) => t('pages.divisions.renamed'),
      invalidates: showingDivisions,
    },
    callbacks,
  );
}

/** Deletes a division with its files (the dashboard's figures change with them). */
export function useDeleteDivision(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (divisionId: string) => call(divisionContracts.remove, { params: { divisionId } }),
      success: (t) => t('pages.divisions.deleted'),
      invalidates: () => [...showingDivisions(), dashboardKeys.all],
    },
    callbacks,
  );
}
