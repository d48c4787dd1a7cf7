import type { AbilityRule, MeResponse, UserData, UserKind } from '@werkwissen/shared';

/** The client-side session items of spec section 3 (tokens themselves live in httpOnly cookies). */
const KEYS = [
  'userData',
  'userRole',
  'userAbilityRules',
  'accessToken',
  'refreshToken',
  'impersonation',
] as const;

export interface StoredSession {
  userData: UserData;
  userRole: UserKind;
  userAbilityRules: AbilityRule[];
  /** While an operator views the product as this user: who, and when it ends (the banner shows it). */
  impersonation: NonNullable<MeResponse['impersonation']> | null;
}

export function saveSession(me: MeResponse): void {
  localStorage.setItem('userData', JSON.stringify(me.userData));
  localStorage.setItem('userRole', me.userRole);
  localStorage.setItem('userAbilityRules', JSON.stringify(me.userAbilityRules));
  if (me.impersonation) localStorage.setItem('impersonation', JSON.stringify(me.impersonation));
  else localStorage.removeItem('impersonation');
}

/** The session as the app keeps it in memory, from a `me` answer. */
export function sessionOf(me: MeResponse): StoredSession {
  return {
    userData: me.userData,
    userRole: me.userRole,
    userAbilityRules: me.userAbilityRules,
    impersonation: me.impersonation ?? null,
  };
}

/** Removes every item the spec lists on logout or an invalid state. */
export function clearStoredSession(): void {
  for (const key of KEYS) localStorage.removeItem(key);
}

/** `none` without a stored session, `empty` when one is stored but unusable, else the session. */
export function readSession(): StoredSession | 'none' | 'empty' {
  const raw = localStorage.getItem('userData');
  if (raw === null) return 'none';
  try {
    const userData = JSON.parse(raw) as UserData;
    const userRole = localStorage.getItem('userRole') as UserKind | null;
    const rules = JSON.parse(localStorage.getItem('userAbilityRules') ?? 'null') as AbilityRule[] | null;
    if (!userData?.id || !userRole || !Array.isArray(rules)) return 'empty';
    const impersonation = JSON.parse(
      localStorage.getItem('impersonation') ?? 'null',
    ) as StoredSession['impersonation'];
    return { userData, userRole, userAbilityRules: rules, impersonation };
  } catch {
    return 'empty';
  }
}
