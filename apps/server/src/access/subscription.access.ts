import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** A company's plans (the `subscriptions` rows): its data manager's; the operator's across companies. */
export const subscriptionAccess = defineAccess({
  subject: 'Subscription',
  table: 'subscriptions',
  company: 'companyId',
  fields: { companyId: column('company_id') },
});
