import type { AbilityRule, AppAbility } from '@werkwissen/shared';

/** What the app asks of the user's rules: `can`, and `rulesFor` (the roles editor's `holdsRight`). */
export type Ability = Pick<AppAbility, 'can' | 'rulesFor'>;

/** A visitor's: no rule grants anything (as CASL's ability of no rules answers). */
export const NO_RIGHTS: Ability = { can: () => false, rulesFor: () => [] };

type BuildAbility = (rules: AbilityRule[]) => AppAbility;

let builder: BuildAbility | null = null;
let loading: Promise<BuildAbility> | null = null;

/**
 * CASL and the ability builder (~5 KB), which only a signed-in user needs: loaded at start when a session is stored,
 * and by the sign-in page while someone signs in, not with /login.
 */
export function loadAbilityBuilder(): Promise<BuildAbility> {
  loading ??= import('@werkwissen/shared/permissions/ability').then(
    (m) => {
      builder = m.buildAbility;
      return builder;
    },
    (error: unknown) => {
      loading = null; // a failed download is tried again by the next caller
      throw error;
    },
  );
  return loading;
}

/** Starts loading CASL early; a failure is reported by the load that needs it (the loader retries). */
export const preloadAbilityBuilder = () => void loadAbilityBuilder().catch(() => {});

/** The builder, once loaded. */
export const loadedAbilityBuilder = (): BuildAbility | null => builder;
