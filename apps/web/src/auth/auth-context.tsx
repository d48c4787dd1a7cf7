import { HOME_BY_KIND, type MeResponse } from '@werkwissen/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { bootEndpoints } from '../api/boot-endpoints.ts';
import { ApiError, call, setSessionLostHandler } from '../api/http.ts';
import { changeLanguage, i18next as i18n } from '../i18n/i18n.ts';
import { type Ability, loadAbilityBuilder, loadedAbilityBuilder, NO_RIGHTS } from './ability.ts';
import {
  clearStoredSession,
  readSession,
  type StoredSession,
  saveSession,
  sessionOf,
} from './session-storage.ts';

interface AuthValue {
  session: StoredSession | null;
  state: 'none' | 'empty' | 'signedIn';
  ability: Ability;
  /**
   * False while a signed-in user's rules wait for CASL (`ability.ts`), which loads apart from the first load: the
   * router waits, so no page sees the placeholder.
   */
  abilityReady: boolean;
  home: string;
  /** Stores a fresh `me` answer (after login, refresh or an account change). */
  signIn(me: MeResponse): void;
  /** Ends the session on the server and removes the stored items. */
  signOut(): Promise<void>;
  /** Removes the stored items only (the server already refused the session). */
  clear(): void;
}

const AuthContext = createContext<AuthValue | null>(null);

/** `confirmed`: the app already asked `GET /auth/me` at start (and picked the language from it). */
export function AuthProvider({ children, confirmed = false }: { children: ReactNode; confirmed?: boolean }) {
  const [stored, setStored] = useState(() => readSession());
  const [build, setBuild] = useState(loadedAbilityBuilder);
  const [buildFailure, setBuildFailure] = useState<unknown>(null);
  const signedIn = typeof stored === 'object';
  useEffect(() => {
    if (!signedIn || build) return;
    loadAbilityBuilder().then((loaded) => setBuild(() => loaded), setBuildFailure);
  }, [signedIn, build]);

  const clear = useCallback(() => {
    clearStoredSession();
    setStored('none');
  }, []);

  const signIn = useCallback((me: MeResponse) => {
    saveSession(me);
    setStored(sessionOf(me));
    void changeLanguage(me.userData.language);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await call(bootEndpoints.logout);
    } finally {
      clear();
    }
  }, [clear]);

  // The stored userData says "signed in"; the server confirms it once at start (unless the app already did).
  useEffect(() => {
    setSessionLostHandler(clear);
    if (confirmed || typeof readSession() !== 'object') return;
    call(bootEndpoints.me)
      .then((me) => {
        saveSession(me);
        setStored(sessionOf(me));
        // Saved on another device: the server's choice wins.
        if (me.userData.language !== i18n.language) void changeLanguage(me.userData.language);
      })
      .catch((error: unknown) => {
        // Only the server's refusal ends the session; a network failure (or a reload in flight) does not.
        if (error instanceof ApiError && error.status === 401) clear();
      });
  }, [clear, confirmed]);

  const value = useMemo<AuthValue>(() => {
    const session = typeof stored === 'object' ? stored : null;
    return {
      session,
      state: session ? 'signedIn' : (stored as 'none' | 'empty'),
      ability: session && build ? build(session.userAbilityRules) : NO_RIGHTS,
      abilityReady: !session || build !== null,
      home: session ? HOME_BY_KIND[session.userRole] : '/login',
      signIn,
      signOut,
      clear,
    };
  }, [stored, build, signIn, signOut, clear]);

  // A failed download fails like a lazily loaded page's.
  if (buildFailure) throw buildFailure;
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
