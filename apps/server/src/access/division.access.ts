import { sql } from 'drizzle-orm';
import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** Divisions: `assignedTo` is the set of employees a division is assigned to (employee_divisions). */
export const divisionAccess = defineAccess({
  subject: 'Division',
  table: 'divisions',
  company: 'companyId',
  fields: {
    id: column('id'),
    companyId: column('company_id'),
    name: column('name'),
    assignedTo: {
      members: (row, userIds) => sql`exists (select 1 from employee_divisions access_assignment
        where access_assignment.division_id = ${row}.id
          and access_assignment.user_id::text in (${sql.join(
            userIds.map((id) => sql`${id}`),
            sql`, `,
          )}))`,
    },
  },
});
