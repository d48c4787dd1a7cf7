import { sql } from 'drizzle-orm';
import { divisionAccess } from './division.access.ts';
import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** A division's connectors: whoever may not read the division can do nothing with them. */
export const connectorAccess = defineAccess({
  subject: 'Connector',
  table: 'connectors',
  company: 'companyId',
  fields: { id: column('id'), companyId: column('company_id'), divisionId: column('division_id') },
  within: (row, actor) => sql`exists (select 1 from divisions access_connector_division
    where access_connector_division.id = ${row}.division_id
      and ${divisionAccess.where(actor, 'read', 'access_connector_division')})`,
});
