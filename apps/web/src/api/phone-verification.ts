import { useQuery } from '@tanstack/react-query';
import {
  type PhoneVerification,
  type PhoneVerificationCode,
  phoneVerificationContracts,
} from '@werkwissen/shared';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the signed-in user's phone confirmation. */
export const phoneVerificationKeys = {
  all: ['phone-verification'] as const,
  status: () => [...phoneVerificationKeys.all, 'status'] as const,
};

/** How often a pending confirmation asks whether the code has arrived from the phone. */
const PENDING_POLL_MS = 3000;

/** The user's phone number and its state; while a code waits to be sent, asked again every few seconds. */
export function usePhoneVerification(phone: string | null) {
  return useQuery<PhoneVerification>({
    queryKey: [...phoneVerificationKeys.status(), phone],
    queryFn: () => call(phoneVerificationContracts.status),
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? PENDING_POLL_MS : false),
  });
}

/** A new code to send from the phone by WhatsApp (shown once; the earlier one stops working). */
export function useStartPhoneVerification(callbacks?: MutationCallbacks<void, PhoneVerificationCode>) {
  return useApiMutation(
    {
      mutationFn: () => call(phoneVerificationContracts.start),
      invalidates: () => [phoneVerificationKeys.all],
    },
    callbacks,
  );
}
