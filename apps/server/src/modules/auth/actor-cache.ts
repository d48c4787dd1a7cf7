/**
 * The tables whose rows decide who a session's or an API key's actor is and what `/auth/me` shows of them: what every
 * signed-in request reads is kept in a `ReadCache` (`AppContext.actors`) that this process's writes to them empty.
 */
export const ACTOR_TABLES = [
  'users',
  'auth_sessions',
  'api_keys',
  'user_roles',
  'roles',
  'companies',
] as const;
