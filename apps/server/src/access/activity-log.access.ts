import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** The activity log: the operator's by default; a company user granted it reads their company's entries only. */
export const activityLogAccess = defineAccess({
  subject: 'ActivityLog',
  table: 'activity_log',
  company: 'companyId',
  fields: { companyId: column('company_id'), actorUserId: column('actor_user_id') },
});
