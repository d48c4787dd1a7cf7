import { useQuery } from '@tanstack/react-query';
import { type TourUpdate, tourContracts } from '@werkwissen/shared';
import { useAuth } from '../auth/auth-context.tsx';
import { call } from './http.ts';
import { useApiMutation } from './mutation.ts';

/** Query keys of the caller's guided tour. */
export const tourKeys = {
  all: ['tour'] as const,
};

/** Whether the signed-in user takes the tour: whoever may set their company up. */
export function useMayTakeTour() {
  const { session, ability } = useAuth();
  return Boolean(session?.userData.companyId) && ability.can('update', 'Company');
}

/** How often an open tour asks again: a file becomes ready in the background, not by a change of this screen. */
const OPEN_TOUR_REFRESH_MS = 10_000;

/**
 * The caller's tour with each step's done state as the server computes it from the company's data. While it is
 * open (new or under way) it is read again now and then, so that a file finished in the background shows as done.
 */
export function useTour() {
  return useQuery({
    queryKey: tourKeys.all,
    queryFn: () => call(tourContracts.get),
    enabled: useMayTakeTour(),
    refetchInterval: (query) =>
      query.state.data?.status === 'new' || query.state.data?.status === 'active'
        ? OPEN_TOUR_REFRESH_MS
        : false,
  });
}

/** Opens, resumes or skips the tour and keeps the step the user is at. */
export function useUpdateTour() {
  return useApiMutation({
    mutationFn: (body: TourUpdate) => call(tourContracts.update, { body }),
    update: (queryClient, data) => queryClient.setQueryData(tourKeys.all, data),
    invalidates: () => [tourKeys.all],
  });
}
