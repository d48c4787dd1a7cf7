import { APP_ROUTES, type Area, type MenuEntry } from '@werkwissen/shared';
import type { Ability } from '../auth/ability.ts';

export interface MenuItemData extends MenuEntry {
  id: string;
  /** Where the entry links. */
  path: string;
  /** The route pattern, to mark the entry active on any of its pages. */
  pattern: string;
}

export const SECTION_ORDER: MenuEntry['section'][] = [
  'overview',
  'knowledge',
  'chat',
  'reports',
  'company',
  'administration',
  'account',
];

/**
 * The menu of an area: manifest entries the user may open (CASL), grouped by section, in order; with the pages of
 * other areas listed here too (`alsoIn`), under their label for this area.
 */
export function menuFor(
  area: Area,
  ability: Ability,
): Array<{ section: MenuEntry['section']; items: MenuItemData[] }> {
  const items = APP_ROUTES.flatMap((r): MenuItemData[] => {
    if (!r.menu || (r.permission && !ability.can(r.permission.action, r.permission.subject))) return [];
    const { alsoIn, ...entry } = r.menu;
    const path = entry.to ?? r.path;
    if (r.area === area) return [{ ...entry, id: r.id, path, pattern: r.path }];
    const elsewhere = alsoIn?.find((a) => a.area === area);
    if (!elsewhere) return [];
    const { section, label, icon, order } = elsewhere;
    return [{ ...entry, section, label, icon, order, id: r.id, path, pattern: r.path }];
  });
  return SECTION_ORDER.map((section) => ({
    section,
    items: items.filter((i) => i.section === section).sort((a, b) => a.order - b.order),
  })).filter((g) => g.items.length > 0);
}
