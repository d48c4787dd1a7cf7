import type { TourStep } from '@werkwissen/shared';

/**
 * Where each of the tour's steps happens: the page and the real control the step points at. WhatsApp's connect
 * dialog is being built separately; its place is the account settings' `whatsapp` tab, whose connect button carries
 * `data-tour="whatsapp"`. Until that tab exists, the page sends the user to their account details and the step is
 * only described in the tour's panel.
 */
export const TOUR_PLACES: Record<TourStep, { path: string; target: string }> = {
  logo: { path: '/account-settings/company', target: '[data-tour="logo"]' },
  companyDetails: { path: '/account-settings/company', target: '[data-tour="company-details"]' },
  documents: { path: '/divisions', target: '[data-tour="documents"]' },
  whatsapp: { path: '/account-settings/whatsapp', target: '[data-tour="whatsapp"]' },
};
