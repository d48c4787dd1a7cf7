import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FINAL_FILE_STATUSES, fileContracts, type KnowledgeFile } from '@werkwissen/shared';
import { useRef } from 'react';
import type { ListQuery } from '../components/data-table.tsx';
import { dashboardKeys } from './dashboard.ts';
import { divisionKeys } from './divisions.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { searchKeys } from './search.ts';
import { filterValue } from './table-query.ts';
import { uploadFiles } from './upload.ts';

/** A file status to filter by (as the status filter gives it), or '' for every status. */
type StatusFilter = string;

/** Query keys of files: a division's list, the operator's processing table, one file. */
export const fileKeys = {
  all: ['files'] as const,
  lists: () => [...fileKeys.all, 'list'] as const,
  list: (divisionId: string, filters: { status: StatusFilter }) =>
    [...fileKeys.lists(), divisionId, filters] as const,
  processing: (filters: { status: StatusFilter }) => [...fileKeys.all, 'processing', filters] as const,
  details: () => [...fileKeys.all, 'detail'] as const,
  detail: (fileId: string) => [...fileKeys.details(), fileId] as const,
};

const inProgress = (files: KnowledgeFile[]) => files.some((f) => !FINAL_FILE_STATUSES.includes(f.status));

/**
 * The data table's source for a division's files. When the last file of the shown page is done, the division's
 * count and size may have changed (a file that became ready can replace an older one), so the divisions reload.
 */
export function useDivisionFilesTable(divisionId: string, status: StatusFilter) {
  const queryClient = useQueryClient();
  const wasBusy = useRef(false);
  return {
    queryKey: fileKeys.list(divisionId, { status }),
    fetchPage: async (query: ListQuery) => {
      const res = await call(fileContracts.list, {
        params: { divisionId },
        query: { ...query, status: filterValue(fileContracts.list.querystring.shape.status, status) },
      });
      const busy = inProgress(res.items);
      if (wasBusy.current && !busy) void queryClient.invalidateQueries({ queryKey: divisionKeys.all });
      wasBusy.current = busy;
      return res;
    },
  };
}

/** The data table's source for the operator's processing table: the files of every company. */
export function processingTable(status: StatusFilter) {
  return {
    queryKey: fileKeys.processing({ status }),
    fetchPage: (query: ListQuery) =>
      call(fileContracts.adminList, {
        query: { ...query, status: filterValue(fileContracts.adminList.querystring.shape.status, status) },
      }),
  };
}

/** One file with its processing steps. */
export function useFile(
  fileId: string,
  options: {
    enabled?: boolean;
    retry?: boolean;
    /** How often to reload it, given the file (e.g. while it is processed); false: never. */
    refetchInterval?(file: KnowledgeFile | undefined): number | false;
  } = {},
) {
  const { refetchInterval } = options;
  return useQuery({
    queryKey: fileKeys.detail(fileId),
    queryFn: () => call(fileContracts.get, { params: { fileId } }),
    enabled: options.enabled,
    retry: options.retry,
    refetchInterval: refetchInterval ? (query) => refetchInterval(query.state.data) : undefined,
  });
}

interface FileAction {
  action: 'retry' | 'cancel';
  fileId: string;
}

/** Processes a file again, or stops its processing. */
export function useFileAction(callbacks?: MutationCallbacks<FileAction, unknown>) {
  return useApiMutation(
    {
      mutationFn: ({ action, fileId }: FileAction) => call(fileContracts[action], { params: { fileId } }),
      success: (t, _data, { action }) =>
        t(action === 'retry' ? 'pages.files.retried' : 'pages.files.cancelled'),
      invalidates: () => [fileKeys.all, dashboardKeys.all],
    },
    callbacks,
  );
}

export function useDeleteFile(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (fileId: string) => call(fileContracts.remove, { params: { fileId } }),
      success: (t) => t('pages.files.deleted'),
      invalidates: () => [fileKeys.all, divisionKeys.all, dashboardKeys.all, searchKeys.all],
    },
    callbacks,
  );
}

interface Upload {
  files: File[];
  signal: AbortSignal;
  onProgress(share: number): void;
}

/**
 * Sends files into a division. The upload dialog reports every file's outcome itself (`claimError`), so there is no
 * snackbar; the division's files and counts reload whether or not the server took them.
 */
export function useUploadFiles(
  divisionId: string,
  callbacks?: MutationCallbacks<Upload, Awaited<ReturnType<typeof uploadFiles>>>,
) {
  return useApiMutation(
    {
      mutationFn: ({ files, signal, onProgress }: Upload) =>
        uploadFiles(divisionId, files, { signal, onProgress }),
      invalidates: () => [fileKeys.all, divisionKeys.all, dashboardKeys.all],
    },
    callbacks,
  );
}
