import { type publicFeedbackBodySchema, publicFeedbackContracts } from '@werkwissen/shared';
import type { z } from 'zod';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

type Body = z.input<typeof publicFeedbackBodySchema>;

/** Sends the public feedback page's rating; the screen shows the outcome itself. */
export function useSubmitPublicFeedback(callbacks?: MutationCallbacks<Body, { message: string }>) {
  return useApiMutation(
    { mutationFn: (body: Body) => call(publicFeedbackContracts.submit, { body }), invalidates: () => [] },
    callbacks,
  );
}
