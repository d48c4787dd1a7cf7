import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** Personal API keys (`userId` is the owner). The /api-keys routes show the caller's own keys only. */
export const apiKeyAccess = defineAccess({
  subject: 'ApiKey',
  table: 'api_keys',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id'), userId: column('user_id') },
});
