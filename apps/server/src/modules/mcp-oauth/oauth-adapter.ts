import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DbOrTx } from '../../db/database.ts';
import {
  consumeOAuthRecord,
  deleteExpiredOAuthRecords,
  deleteOAuthGrant,
  deleteOAuthRecord,
  findOAuthRecord,
  upsertOAuthRecord,
} from './oauth-records.queries.ts';

const SWEEP_EVERY_MS = 3_600_000;

/**
 * The storage of the authorization server in PostgreSQL (`oauth_records`): the adapter `oidc-provider` asks for one
 * instance per model (Client, Interaction, Grant, AuthorizationCode, AccessToken, RefreshToken, Session, ...).
 * Expired records are never returned, and swept at most once an hour per process.
 */
export function oauthAdapter(db: DbOrTx) {
  let lastSweep = 0;
  const sweep = async () => {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    await deleteExpiredOAuthRecords(db);
  };
  return class PostgresAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await upsertOAuthRecord(db, { model: this.model, id, payload: { ...payload }, expiresAt });
      await sweep();
    }
    async find(id: string) {
      return (await findOAuthRecord(db, this.model, { id })) as AdapterPayload | undefined;
    }
    async findByUid(uid: string) {
      return (await findOAuthRecord(db, this.model, { uid })) as AdapterPayload | undefined;
    }
    async findByUserCode(userCode: string) {
      return (await findOAuthRecord(db, this.model, { userCode })) as AdapterPayload | undefined;
    }
    async consume(id: string) {
      await consumeOAuthRecord(db, this.model, id);
    }
    async destroy(id: string) {
      await deleteOAuthRecord(db, this.model, id);
    }
    async revokeByGrantId(grantId: string) {
      await deleteOAuthGrant(db, grantId);
    }
  };
}
