import { useQuery } from '@tanstack/react-query';
import { type CompanyBranding, companyBrandingContracts } from '@werkwissen/shared';
import { useAuth } from '../auth/auth-context.tsx';
import { call, putFile } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { tourKeys } from './tour.ts';

/** Query keys of the company's logo and default document. */
export const companyBrandingKeys = {
  all: ['company-branding'] as const,
};

/** The company's logo and default document; asked only by a user of a company who may read it. */
export function useCompanyBranding() {
  const { session, ability } = useAuth();
  return useQuery({
    queryKey: companyBrandingKeys.all,
    queryFn: () => call(companyBrandingContracts.get),
    enabled: Boolean(session?.userData.companyId) && ability.can('read', 'Company'),
  });
}

/** The company's logo (the server crops and scales it; the navigation shows it at once) and its removal. */
export function useUploadCompanyLogo(callbacks?: MutationCallbacks<File, CompanyBranding>) {
  return useApiMutation(
    {
      mutationFn: (file: File) => putFile(companyBrandingContracts.uploadLogo, file),
      success: (t) => t('companyLogo.saved'),
      update: (queryClient, data) => queryClient.setQueryData(companyBrandingKeys.all, data),
      invalidates: () => [companyBrandingKeys.all, tourKeys.all],
    },
    callbacks,
  );
}

export function useRemoveCompanyLogo() {
  return useApiMutation({
    mutationFn: () => call(companyBrandingContracts.removeLogo),
    success: (t) => t('companyLogo.removed'),
    update: (queryClient, data) => queryClient.setQueryData(companyBrandingKeys.all, data),
    invalidates: () => [companyBrandingKeys.all, tourKeys.all],
  });
}

/** The company's colour for its public pages (null: the product's); the server checks its contrast. */
export function useSetBrandColor(callbacks?: MutationCallbacks<string | null, CompanyBranding>) {
  return useApiMutation(
    {
      mutationFn: (brandColor: string | null) =>
        call(companyBrandingContracts.setBrandColor, { body: { brandColor } }),
      success: (t, _data, brandColor) => t(brandColor ? 'companyColor.saved' : 'companyColor.removed'),
      update: (queryClient, data) => queryClient.setQueryData(companyBrandingKeys.all, data),
      invalidates: () => [companyBrandingKeys.all],
    },
    callbacks,
  );
}

/** The document every new division starts with, and its removal. */
export function useUploadDefaultDocument(callbacks?: MutationCallbacks<File, CompanyBranding>) {
  return useApiMutation(
    {
      mutationFn: (file: File) => putFile(companyBrandingContracts.uploadDefaultDocument, file),
      success: (t) => t('defaultDocument.saved'),
      update: (queryClient, data) => queryClient.setQueryData(companyBrandingKeys.all, data),
      invalidates: () => [companyBrandingKeys.all],
    },
    callbacks,
  );
}

export function useRemoveDefaultDocument() {
  return useApiMutation({
    mutationFn: () => call(companyBrandingContracts.removeDefaultDocument),
    success: (t) => t('defaultDocument.removed'),
    update: (queryClient, data) => queryClient.setQueryData(companyBrandingKeys.all, data),
    invalidates: () => [companyBrandingKeys.all],
  });
}
