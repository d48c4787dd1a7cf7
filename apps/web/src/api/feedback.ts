import { useQuery } from '@tanstack/react-query';
import { feedbackContracts, type ReportFilter } from '@werkwissen/shared';
import type { ListQuery } from '../components/data-table.tsx';
import { call } from './http.ts';

/** Query keys of the feedback reports: the list of each report view, the series per day, the knowledge gaps. */
export const feedbackKeys = {
  all: ['feedback'] as const,
  lists: () => [...feedbackKeys.all, 'list'] as const,
  /** `view`: the report's path (the data manager's views and the operator's report list differently). */
  list: (view: string, filters: ReportFilter) => [...feedbackKeys.lists(), view, filters] as const,
  series: (filters: ReportFilter) => [...feedbackKeys.all, 'series', filters] as const,
  gaps: (filters: ReportFilter) => [...feedbackKeys.all, 'gaps', filters] as const,
};

/** The data table's source for a feedback report. */
export const feedbackTable = (view: string, filters: ReportFilter) => ({
  queryKey: feedbackKeys.list(view, filters),
  fetchPage: (page: ListQuery) => call(feedbackContracts.list, { query: { ...page, ...filters } }),
});

/** Questions and feedback per day. */
export function useFeedbackSeries(filters: ReportFilter) {
  return useQuery({
    queryKey: feedbackKeys.series(filters),
    queryFn: () => call(feedbackContracts.series, { query: filters }),
  });
}

/** The questions the documents did not answer well, grouped; the last groups stay while new filters load. */
export function useKnowledgeGaps(filters: ReportFilter) {
  return useQuery({
    queryKey: feedbackKeys.gaps(filters),
    queryFn: () => call(feedbackContracts.gaps, { query: filters }),
    placeholderData: (previous) => previous,
  });
}
