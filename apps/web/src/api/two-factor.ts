import { useQuery } from '@tanstack/react-query';
import { type TwoFactorEnrolment, type TwoFactorStatus, twoFactorContracts } from '@werkwissen/shared';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the signed-in user's second factor. */
export const twoFactorKeys = {
  all: ['two-factor'] as const,
  status: () => [...twoFactorKeys.all, 'status'] as const,
};

export function useTwoFactorStatus() {
  return useQuery<TwoFactorStatus>({
    queryKey: twoFactorKeys.status(),
    queryFn: () => call(twoFactorContracts.twoFactorStatus),
  });
}

/** Account settings: a new secret to scan (nothing changes until its first code is confirmed). */
export function useStartEnrolment(callbacks?: MutationCallbacks<void, TwoFactorEnrolment>) {
  return useApiMutation(
    { mutationFn: () => call(twoFactorContracts.startAccountEnrolment), invalidates: () => [] },
    callbacks,
  );
}

/** Confirms the app with its first code; the answer holds the recovery codes, shown once. */
export function useConfirmEnrolment(callbacks?: MutationCallbacks<string, { recoveryCodes: string[] }>) {
  return useApiMutation(
    {
      mutationFn: (code: string) => call(twoFactorContracts.confirmAccountEnrolment, { body: { code } }),
      success: (t) => t('auth.twoFactor.enabled'),
      invalidates: () => [twoFactorKeys.all],
    },
    callbacks,
  );
}

export function useDisableTwoFactor(callbacks?: MutationCallbacks<string, { message: string }>) {
  return useApiMutation(
    {
      mutationFn: (code: string) => call(twoFactorContracts.disableTwoFactor, { body: { code } }),
      success: (t) => t('auth.twoFactor.disabled'),
      invalidates: () => [twoFactorKeys.all],
    },
    callbacks,
  );
}

/** An administrator removes another user's second factor; they enrol again at their next sign-in. */
export function useResetTwoFactor(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (userId: string) => call(twoFactorContracts.resetUserTwoFactor, { params: { userId } }),
      success: (t) => t('auth.twoFactor.resetDone'),
      invalidates: () => [],
    },
    callbacks,
  );
}
