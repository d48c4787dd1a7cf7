/** The tables whose rows decide who a session's or an API key's actor is and what `/auth/me` shows of them. */
export const ACTOR_TABLES = [
  'users',
  'auth_sessions',
  'api_keys',
  'user_roles',
  'roles',
  'companies',
] as const;

/**
 * What every signed-in request reads (the session's or API key's actor, the user's data for `/auth/me`): a
 * `ReadCache` emptied by this process's writes to `ACTOR_TABLES`.
 */
export { READ_CACHE_MS as ACTOR_CACHE_MS, ReadCache as ActorCache } from '../../db/read-cache.ts';
