import { useQuery } from '@tanstack/react-query';
import {
  authContracts,
  type CompanyDetails,
  type CompanyDetailsBody,
  companyDetailsContracts,
} from '@werkwissen/shared';
import { useAuth } from '../auth/auth-context.tsx';
import { dashboardKeys } from './dashboard.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { tourKeys } from './tour.ts';

/** Query keys of the company's master data. */
export const companyDetailsKeys = {
  all: ['company-details'] as const,
};

export function useCompanyDetails() {
  return useQuery({ queryKey: companyDetailsKeys.all, queryFn: () => call(companyDetailsContracts.get) });
}

/**
 * Saves the company's master data with the spec's account-settings messages; the dashboard's next steps and the
 * company name in the navigation follow.
 */
export function useSaveCompanyDetails(callbacks?: MutationCallbacks<CompanyDetailsBody, CompanyDetails>) {
  const auth = useAuth();
  return useApiMutation(
    {
      mutationFn: (body: CompanyDetailsBody) => call(companyDetailsContracts.save, { body }),
      update: () => void call(authContracts.me).then(auth.signIn, () => {}),
      success: (t) => t('messages.accountSaved'),
      failure: (t) => t('pages.accountSettings.saveFailed'),
      invalidates: () => [companyDetailsKeys.all, dashboardKeys.all, tourKeys.all],
    },
    callbacks,
  );
}
