import type { TFunction } from 'i18next';

/**
 * What an empty user list says: the spec's "No users found with this email" when the search is an address, that
 * nothing matches for another search, else that there is nobody yet.
 */
export const userEmptyText = (t: TFunction, nobodyYet: string) => (search: string) =>
  search.includes('@') ? t('admin.users.noEmailMatch') : search ? t('admin.users.noMatch') : nobodyYet;
