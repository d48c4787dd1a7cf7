import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** A company's customers: its data manager manages them (default rules); nobody outside the company sees them. */
export const customerAccess = defineAccess({
  subject: 'Customer',
  table: 'customers',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id') },
});
