import type { Action } from '@werkwissen/shared';
import type { Actor } from '../core/actor.ts';
import { defineAccess, homeCompany } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** Companies (their settings, like the AI providers): a company user reaches their own only. */
export const companyAccess = defineAccess({
  subject: 'Company',
  table: 'companies',
  company: 'id',
  fields: { id: column('id') },
});

/** The caller's own company when their Company rules allow `action` on it (its settings); FORBIDDEN otherwise. */
export function ownCompany(actor: Actor, action: Action): string {
  const id = homeCompany(actor);
  companyAccess.assertCan(actor, action, { id });
  return id;
}
