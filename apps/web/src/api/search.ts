import { useQuery } from '@tanstack/react-query';
import { searchContracts } from '@werkwissen/shared';
import { call } from './http.ts';

export interface SearchRequest {
  q: string;
  /** One division, or '' for every division the user may see. */
  divisionId: string;
}

/** Query keys of search results. */
export const searchKeys = {
  all: ['search'] as const,
  results: (search: SearchRequest | null) => [...searchKeys.all, search] as const,
};

/** The passages found for a search; nothing is asked before the first search is sent. */
export function useSearch(search: SearchRequest | null) {
  return useQuery({
    queryKey: searchKeys.results(search),
    queryFn: () =>
      call(searchContracts.search, {
        query: { q: search!.q, divisionId: search!.divisionId || undefined },
      }),
    enabled: search !== null,
  });
}
