import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** A company's invoices: its data manager reads them; the operator reads every company's. */
export const invoiceAccess = defineAccess({
  subject: 'Invoice',
  table: 'invoices',
  company: 'companyId',
  fields: { companyId: column('company_id') },
});
