import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** The company's feedback tags. */
export const tagAccess = defineAccess({
  subject: 'Tag',
  table: 'tags',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id') },
});
