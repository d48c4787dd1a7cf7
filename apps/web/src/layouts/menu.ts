import { APP_ROUTES, type AppAbility, type Area, type MenuEntry } from '@werkwissen/shared';

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

/** The menu of an area: manifest entries the user may open (CASL), grouped by section, in order. */
export function menuFor(
  area: Area,
  ability: AppAbility,
): Array<{ section: MenuEntry['section']; items: MenuItemData[] }> {
  const items = APP_ROUTES.filter(
    (r) =>
      r.area === area && r.menu && (!r.permission || ability.can(r.permission.action, r.permission.subject)),
  ).map((r) => ({ ...r.menu!, id: r.id, path: r.menu!.to ?? r.path, pattern: r.path }));
  return SECTION_ORDER.map((section) => ({
    section,
    items: items.filter((i) => i.section === section).sort((a, b) => a.order - b.order),
  })).filter((g) => g.items.length > 0);
}
