import { AbilityProvider } from '@casl/react';
import { type AppAbility, buildAbility, HOME_BY_KIND, type MeResponse } from '@werkwissen/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { bootEndpoints } from '../api/boot-endpoints.ts';
import { ApiError, call, setSessionLostHandler } from '../api/http.ts';
import { changeLanguage, i18next as i18n } from '../i18n/i18n.ts';
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
  ability: AppAbility;
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
      ability: buildAbility(session?.userAbilityRules ?? []),
      home: session ? HOME_BY_KIND[session.userRole] : '/login',
      signIn,
      signOut,
      clear,
    };
  }, [stored, signIn, signOut, clear]);

  return (
    <AuthContext.Provider value={value}>
      <AbilityProvider value={value.ability}>{children}</AbilityProvider>
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
