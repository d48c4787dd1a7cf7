import { sql } from 'drizzle-orm';
import { divisionAccess } from './division.access.ts';
import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** Files. A file lives in a division: whoever may not read the division can do nothing with its files. */
export const fileAccess = defineAccess({
  subject: 'File',
  table: 'files',
  company: 'companyId',
  fields: {
    id: column('id'),
    companyId: column('company_id'),
    divisionId: column('division_id'),
    kind: column('kind'),
  },
  within: (row, actor) => sql`exists (select 1 from divisions access_file_division
    where access_file_division.id = ${row}.division_id
      and ${divisionAccess.where(actor, 'read', 'access_file_division')})`,
});
