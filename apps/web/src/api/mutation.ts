import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../components/form.tsx';
import { useSnackbar } from '../components/snackbar.tsx';

/** One change to the server, declared once in its resource module (`api/<resource>.ts`). */
export interface MutationSpec<TVars, TData> {
  /** The call through the typed client. */
  mutationFn(vars: TVars): Promise<TData>;
  /** The snackbar's text after success; none when it gives undefined. */
  success?(t: TFunction, data: TData, vars: TVars): string | undefined;
  /** The snackbar's text after a failure; by default the server's error in the interface language. */
  failure?(t: TFunction, error: unknown): string;
  /** Puts the answer where the cache already shows its object, before anything is reloaded. */
  update?(queryClient: QueryClient, data: TData, vars: TVars): void;
  /**
   * The queries the change makes stale. They are reloaded after success and after failure alike (a refused change
   * may have met a server state the screen did not show yet), and the mutation stays pending until they are.
   */
  invalidates(vars: TVars): QueryKey[];
}

/** What a screen adds to a change. */
export interface MutationCallbacks<TVars, TData> {
  /** Once the server agreed, before the affected queries reload: close the dialog, go to the next page. */
  onSuccess?(data: TData, vars: TVars): void;
  /** After success or failure, once the affected queries are reloaded. */
  onSettled?(): void;
  /** A failure the screen shows itself (on a form field, in the dialog): true keeps it out of the snackbar. */
  claimError?(error: unknown): boolean;
}

/**
 * A mutation hook that owns the whole change: the call, the translated success or failure snackbar and the reload of
 * exactly the queries the change affects. Resource modules build their `use<Verb><Resource>` hooks on it, so that
 * pages never name a query key or touch the cache.
 */
export function useApiMutation<TVars, TData>(
  spec: MutationSpec<TVars, TData>,
  callbacks: MutationCallbacks<TVars, TData> = {},
) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  return useMutation<TData, Error, TVars>({
    mutationFn: spec.mutationFn,
    onSuccess: (data, vars) => {
      spec.update?.(queryClient, data, vars);
      const message = spec.success?.(t, data, vars);
      if (message) snackbar(message);
      callbacks.onSuccess?.(data, vars);
    },
    onError: (error) => {
      if (callbacks.claimError?.(error)) return;
      snackbar(spec.failure?.(t, error) ?? errorMessage(error, t), 'error');
    },
    onSettled: async (_data, _error, vars) => {
      await invalidateAll(queryClient, spec.invalidates(vars));
      callbacks.onSettled?.();
    },
  });
}

/** Marks the queries under each key stale and reloads those on screen. */
export function invalidateAll(queryClient: QueryClient, keys: QueryKey[]): Promise<unknown> {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
