import type { FieldValues, Resolver } from 'react-hook-form';

export interface LazyResolver<T extends FieldValues> {
  resolver: Resolver<T>;
  /** Starts loading the schema (e.g. when the user starts typing), so that submitting does not wait. */
  preload(): void;
}

/**
 * A form resolver whose schema module (and zod with it) is loaded on first use instead of with the page: the
 * sign-in page renders without waiting for it. Validation is the same shared schema either way.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): LazyResolver<T> {
  let loading: Promise<Resolver<T>> | null = null;
  const loaded = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null; // a failed download may be retried by the next attempt
      throw error;
    });
    return loading;
  };
  return {
    resolver: async (values, context, options) => (await loaded())(values, context, options),
    preload: () => void loaded().catch(() => {}),
  };
}
