import { AppError } from '../http/app-error.ts';
import type { Actor } from '../modules/auth/actor.ts';

/**
 * Roles belong to the platform, not to a company: only a caller of no company (the operator) reaches them, and then
 * as their Role rules say (checked at the route: roles have no attributes a rule could narrow). A company user is
 * refused whatever their rules grant, as company isolation keeps them out of everything beyond their company.
 */
export function assertPlatformCaller(actor: Actor): void {
  if (actor.companyId) throw new AppError('FORBIDDEN');
}
