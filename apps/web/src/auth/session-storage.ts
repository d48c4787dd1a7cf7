import type { AbilityRule, MeResponse, UserData, UserKind } from '@werkwissen/shared';

/** The client-side session items of spec section 3 (tokens themselves live in httpOnly cookies). */
const KEYS = ['userData', 'userRole', 'userAbilityRules', 'accessToken', 'refreshToken'] as const;

export interface StoredSession {
  userData: UserData;
  userRole: UserKind;
  userAbilityRules: AbilityRule[];
}

export function saveSession(me: MeResponse): void {
  localStorage.setItem('userData', JSON.stringify(me.userData));
  localStorage.setItem('userRole', me.userRole);
  localStorage.setItem('userAbilityRules', JSON.stringify(me.userAbilityRules));
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
    return { userData, userRole, userAbilityRules: rules };
  } catch {
    return 'empty';
  }
}
