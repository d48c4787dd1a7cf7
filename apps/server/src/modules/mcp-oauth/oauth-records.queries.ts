import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.ts';
import { oauthRecords, users } from '../../db/schema/index.ts';

export type OAuthPayload = Record<string, unknown>;

export interface OAuthRecordInput {
  model: string;
  id: string;
  payload: OAuthPayload;
  expiresAt: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** Writes a record (a new one or a new version of it), with the columns the lookups need taken from its payload. */
export async function upsertOAuthRecord(db: DbOrTx, record: OAuthRecordInput): Promise<void> {
  const accountId = text(record.payload.accountId);
  const columns = {
    payload: record.payload,
    userId: accountId && UUID.test(accountId) ? accountId : null,
    grantId: text(record.payload.grantId),
    uid: text(record.payload.uid),
    userCode: text(record.payload.userCode),
    expiresAt: record.expiresAt,
  };
  await db
    .insert(oauthRecords)
    .values({ model: record.model, id: record.id, ...columns })
    .onConflictDoUpdate({ target: [oauthRecords.model, oauthRecords.id], set: columns });
}

const live = or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, sql`now()`));

/** A record that has not expired, by one of its keys; `consumed` set once it was used (a code, a refresh token). */
export async function findOAuthRecord(
  db: DbOrTx,
  model: string,
  by: { id: string } | { uid: string } | { userCode: string },
): Promise<OAuthPayload | undefined> {
  const key =
    'id' in by
      ? eq(oauthRecords.id, by.id)
      : 'uid' in by
        ? eq(oauthRecords.uid, by.uid)
        : eq(oauthRecords.userCode, by.userCode);
  const [row] = await db
    .select({ payload: oauthRecords.payload, consumedAt: oauthRecords.consumedAt })
    .from(oauthRecords)
    .where(and(eq(oauthRecords.model, model), key, live))
    .limit(1);
  if (!row) return undefined;
  return row.consumedAt
    ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
    : row.payload;
}

export async function consumeOAuthRecord(db: DbOrTx, model: string, id: string): Promise<void> {
  await db
    .update(oauthRecords)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(oauthRecords.model, model), eq(oauthRecords.id, id)));
}

export async function deleteOAuthRecord(db: DbOrTx, model: string, id: string): Promise<void> {
  await db.delete(oauthRecords).where(and(eq(oauthRecords.model, model), eq(oauthRecords.id, id)));
}

/** A revoked grant takes every record issued under it (codes, access and refresh tokens) with it. */
export async function deleteOAuthGrant(db: DbOrTx, grantId: string): Promise<void> {
  await db.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
}

/** Removes records that expired more than a day ago (what a lookup no longer returns anyway). */
export async function deleteExpiredOAuthRecords(db: DbOrTx): Promise<void> {
  await db.delete(oauthRecords).where(lt(oauthRecords.expiresAt, sql`now() - interval '1 day'`));
}

/** Who a user is, for the activity entries of the authorization server (it knows only their id). */
export async function userForActivity(
  db: DbOrTx,
  userId: string,
): Promise<{ email: string; companyId: string | null } | undefined> {
  if (!UUID.test(userId)) return undefined;
  const [row] = await db
    .select({ email: users.email, companyId: users.companyId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export interface GrantRow {
  grantId: string;
  clientId: string;
  clientName: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

/** A user's live grants, newest first, with the name their client registered. */
export async function listUserGrants(
  db: DbOrTx,
  userId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: GrantRow[]; total: number }> {
  const where = and(eq(oauthRecords.model, 'Grant'), eq(oauthRecords.userId, userId), live);
  const clients = alias(oauthRecords, 'clients');
  const rows = await db
    .select({
      grantId: oauthRecords.id,
      clientId: sql<string>`${oauthRecords.payload}->>'clientId'`,
      clientName: sql<string | null>`${clients.payload}->>'client_name'`,
      iat: sql<number>`(${oauthRecords.payload}->>'iat')::bigint`,
      expiresAt: oauthRecords.expiresAt,
    })
    .from(oauthRecords)
    .leftJoin(
      clients,
      and(eq(clients.model, 'Client'), eq(clients.id, sql`${oauthRecords.payload}->>'clientId'`)),
    )
    .where(where)
    .orderBy(desc(sql`(${oauthRecords.payload}->>'iat')::bigint`))
    .offset(page.offset)
    .limit(page.limit);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(oauthRecords).where(where);
  return {
    rows: rows.map(({ iat, ...row }) => ({ ...row, createdAt: new Date(Number(iat) * 1000) })),
    total: count?.total ?? 0,
  };
}

/** Deletes one of the user's grants and every record issued under it; false when it is not theirs. */
export async function deleteUserGrant(db: DbOrTx, userId: string, grantId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(oauthRecords)
      .where(
        and(eq(oauthRecords.model, 'Grant'), eq(oauthRecords.id, grantId), eq(oauthRecords.userId, userId)),
      )
      .returning({ id: oauthRecords.id });
    if (deleted.length === 0) return false;
    await tx.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
    return true;
  });
}
