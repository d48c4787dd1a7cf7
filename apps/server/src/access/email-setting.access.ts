import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** A company's e-mail settings (the e-mail assistant's mailboxes): its data manager manages them. */
export const emailSettingAccess = defineAccess({
  subject: 'EmailSetting',
  table: 'email_settings',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id'), divisionId: column('division_id') },
});
