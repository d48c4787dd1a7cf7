import {
  authContracts,
  type changeEmailBodySchema,
  type changePasswordBodySchema,
  type MeResponse,
  type updateMeBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import { useAuth } from '../auth/auth-context.tsx';
import { apiKeyKeys } from './api-keys.ts';
import { dashboardKeys } from './dashboard.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

type AccountBody = z.input<typeof updateMeBodySchema>;
type PasswordBody = z.input<typeof changePasswordBodySchema>;
type EmailBody = z.input<typeof changeEmailBodySchema>;

/**
 * Saves the signed-in user's details; the session takes the saved user at once. The dashboard's next steps (a
 * complete profile) follow.
 */
export function useUpdateAccount(callbacks?: MutationCallbacks<AccountBody, MeResponse>) {
  const auth = useAuth();
  return useApiMutation(
    {
      mutationFn: (body: AccountBody) => call(authContracts.updateMe, { body }),
      update: (_queryClient, me) => auth.signIn(me),
      success: (t) => t('messages.accountSaved'),
      failure: (t) => t('pages.accountSettings.saveFailed'),
      invalidates: () => [dashboardKeys.all],
    },
    callbacks,
  );
}

/** Changes the password (the server ends the other sessions); the API keys go too when asked. */
export function useChangePassword(callbacks?: MutationCallbacks<PasswordBody, unknown>) {
  return useApiMutation(
    {
      mutationFn: (body: PasswordBody) => call(authContracts.changePassword, { body }),
      success: (t) => t('messages.passwordChanged'),
      failure: (t) => t('pages.accountSettings.passwordFailed'),
      invalidates: (body) => (body.revokeApiKeys ? [apiKeyKeys.all] : []),
    },
    callbacks,
  );
}

/** Asks for a new address: the server mails a link there, and its answer says so. */
export function useChangeEmail(callbacks?: MutationCallbacks<EmailBody, { message: string }>) {
  return useApiMutation(
    {
      mutationFn: (body: EmailBody) => call(authContracts.changeEmail, { body }),
      success: (_t, res) => res.message,
      failure: (t) => t('pages.accountSettings.emailFailed'),
      invalidates: () => [],
    },
    callbacks,
  );
}

/** Mails a new confirmation link; the server's answer says where it went. */
export function useResendVerification() {
  return useApiMutation({
    mutationFn: () => call(authContracts.resendVerification),
    success: (_t, res) => res.message,
    invalidates: () => [],
  });
}
