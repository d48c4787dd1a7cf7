import type { TourStep } from '@werkwissen/shared';

/** Where each of the tour's steps happens: the page and the real control the step points at. */
export const TOUR_PLACES: Record<TourStep, { path: string; target: string }> = {
  logo: { path: '/account-settings/company', target: '[data-tour="logo"]' },
  companyDetails: { path: '/account-settings/company', target: '[data-tour="company-details"]' },
  documents: { path: '/divisions', target: '[data-tour="documents"]' },
  whatsapp: { path: '/account-settings/whatsapp', target: '[data-tour="whatsapp"]' },
};
