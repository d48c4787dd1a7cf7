import type { Role } from '@werkwissen/shared';
import type { TFunction } from 'i18next';

/** A system role under its translated name, a custom role under the name it was given. */
export function roleName(t: TFunction, role: Pick<Role, 'kind' | 'name'>): string {
  return role.kind ? t(`roles.${role.kind}`) : role.name;
}
