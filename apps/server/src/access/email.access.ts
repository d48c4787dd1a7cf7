import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** The e-mail outbox: the operator's by default; a company user granted it reads their company's mails only. */
export const emailAccess = defineAccess({
  subject: 'Email',
  table: 'email_outbox',
  company: 'companyId',
  fields: { companyId: column('company_id'), userId: column('user_id') },
});
