import { AppError } from '../../http/app-error.ts';
import type { Actor } from './actor.ts';

/**
 * Refuses a change of the account's credentials (password, e-mail address, API keys) while an operator views the
 * product as its user: support may look and help, never take the account over.
 */
export function refuseWhileImpersonating(actor: Actor): void {
  if (actor.impersonator) throw new AppError('IMPERSONATION_RESTRICTED');
}
