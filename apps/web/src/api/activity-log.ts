import { type ActivityFilter, adminContracts } from '@werkwissen/shared';
import type { ListQuery } from '../components/data-table.tsx';
import { buildUrl, call } from './http.ts';

/** Query keys of the activity log. */
export const activityKeys = {
  all: ['activity-log'] as const,
  list: (filter: ActivityFilter) => [...activityKeys.all, 'list', filter] as const,
};

/** The data table's source for the activity log under these filters. */
export const activityTable = (filter: ActivityFilter) => ({
  queryKey: activityKeys.list(filter),
  fetchPage: (page: ListQuery) => call(adminContracts.listActivity, { query: { ...page, ...filter } }),
});

/** The address of the server's CSV export of the filtered log (a download the browser streams to disk). */
export const activityExportUrl = (filter: ActivityFilter) =>
  buildUrl(adminContracts.exportActivity.path, undefined, filter);
