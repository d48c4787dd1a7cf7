import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** Users (a data manager's employees; the back office's users). */
export const userAccess = defineAccess({
  subject: 'User',
  table: 'users',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id'), kind: column('kind') },
});
