import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** A company's offers, order confirmations, invoices and credit notes: its data manager's (default rules). */
export const salesDocumentAccess = defineAccess({
  subject: 'SalesDocument',
  table: 'sales_documents',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id') },
});
