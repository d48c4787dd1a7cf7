import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { ApiError } from './http.ts';
import { type MutationCallbacks, type MutationSpec, useApiMutation } from './mutation.ts';

const AFFECTED = ['divisions', 'list'] as const;
const UNRELATED = ['tags', 'list'] as const;

type Handles = { queryClient: QueryClient; mutation: ReturnType<typeof useApiMutation<string, string>> };

function Probe({
  probe,
  spec,
  callbacks,
}: {
  probe: Handles;
  spec: MutationSpec<string, string>;
  callbacks?: MutationCallbacks<string, string>;
}) {
  probe.queryClient = useQueryClient();
  probe.mutation = useApiMutation(spec, callbacks);
  return null;
}

/** Renders a mutation hook in the app's providers with two cached queries, and hands out the hook and the cache. */
function renderMutation(spec: MutationSpec<string, string>, callbacks?: MutationCallbacks<string, string>) {
  const probe = {} as Handles;
  renderWithApp(<Probe probe={probe} spec={spec} callbacks={callbacks} />);
  probe.queryClient.setQueryData(AFFECTED, { items: [] });
  probe.queryClient.setQueryData(UNRELATED, { items: [] });
  return probe;
}

const stale = (probe: Handles, key: readonly unknown[]) =>
  probe.queryClient.getQueryState(key)?.isInvalidated;

describe('a mutation hook', () => {
  it('says that it worked and reloads exactly the queries the change affects', async () => {
    const probe = renderMutation({
      mutationFn: async (name) => name,
      success: (t) => t('pages.divisions.added'),
      invalidates: () => [AFFECTED],
    });
    await act(() => probe.mutation.mutateAsync('Heizung'));
    expect(await screen.findByText('Division added.')).toBeTruthy();
    expect(stale(probe, AFFECTED)).toBe(true);
    expect(stale(probe, UNRELATED)).toBe(false);
  });

  it("shows a failure as the server's error in the interface language, and reloads all the same", async () => {
    const probe = renderMutation({
      mutationFn: () =>
        Promise.reject(new ApiError(409, 'TAG_EXISTS', 'Ein Schlagwort mit diesem Namen gibt es.')),
      invalidates: () => [AFFECTED],
    });
    await act(() => probe.mutation.mutateAsync('Dringend').catch(() => {}));
    expect(await screen.findByText('A tag with this name already exists.')).toBeTruthy();
    expect(stale(probe, AFFECTED)).toBe(true);
  });

  it('leaves a failure the screen shows itself out of the snackbar', async () => {
    await import('../components/snackbar-view.tsx');
    const claimError = vi.fn(() => true);
    const error = new ApiError(409, 'TAG_EXISTS', '');
    const probe = renderMutation(
      { mutationFn: () => Promise.reject(error), invalidates: () => [AFFECTED] },
      { claimError },
    );
    await act(() => probe.mutation.mutateAsync('Dringend').catch(() => {}));
    await act(() => new Promise((resolve) => setTimeout(resolve)));
    expect(claimError).toHaveBeenCalledWith(error);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("runs the screen's success step before the reload and its settled step after it", async () => {
    const seen: string[] = [];
    const probe = renderMutation(
      { mutationFn: async (name) => name, invalidates: () => [AFFECTED] },
      {
        onSuccess: (data) => seen.push(`success ${data}, stale: ${stale(probe, AFFECTED)}`),
        onSettled: () => seen.push(`settled, stale: ${stale(probe, AFFECTED)}`),
      },
    );
    await act(() => probe.mutation.mutateAsync('Heizung'));
    expect(seen).toEqual(['success Heizung, stale: false', 'settled, stale: true']);
  });
});
