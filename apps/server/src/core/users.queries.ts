import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.ts';
import { companies, users } from '../db/schema/index.ts';

/** A user as stored. */
export type UserRow = typeof users.$inferSelect;

/** The user signing in with this e-mail address (given in lower case). */
const emailIs = (email: string): SQL => sql`lower(${users.email}) = ${email}`;

/** The user who signs in with this e-mail address (given in lower case), if any. */
export async function userByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(emailIs(email));
  return user;
}

/** Whether a user other than `except` signs in with this e-mail address (given in lower case). */
export async function emailTaken(db: DbOrTx, email: string, except?: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(emailIs(email), except ? ne(users.id, except) : undefined))
    .limit(1);
  return taken !== undefined;
}

/** What decides whether a user may sign in: their password, and whether they or their company were switched off. */
export interface SignInStanding {
  id: string;
  passwordHash: string | null;
  disabledAt: Date | null;
  suspendedAt: Date | null;
}

/** The standing of the user with this id, or with this e-mail address (given in lower case). */
export async function signInStanding(
  db: DbOrTx,
  user: { id: string } | { email: string },
): Promise<SignInStanding | undefined> {
  const [standing] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
      suspendedAt: companies.suspendedAt,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where('id' in user ? eq(users.id, user.id) : emailIs(user.email));
  return standing;
}

/**
 * Gives the user a new password hash; `confirmsEmail` (the password was set from a mailed link) also marks the
 * address confirmed if it was not. The user's address and kind.
 */
export async function setPasswordHash(
  db: DbOrTx,
  userId: string,
  passwordHash: string,
  confirmsEmail: boolean,
): Promise<Pick<UserRow, 'email' | 'kind'> | undefined> {
  const [user] = await db
    .update(users)
    .set({
      passwordHash,
      ...(confirmsEmail ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning({ email: users.email, kind: users.kind });
  return user;
}

/** The country of a user's company (its master data), else their own, if either is known. */
export async function storedCountry(
  db: DbOrTx,
  user: { userId: string; companyId: string | null },
): Promise<string | null> {
  const { rows } = await db.execute<{ country: string | null }>(sql`
    select coalesce(
      (select d.country from company_details d where d.company_id = ${user.companyId}),
      (select u.country from users u where u.id = ${user.userId})) as country`);
  return rows[0]?.country ?? null;
}

/** Up to `limit` enabled users of a company signing in with this e-mail address (given in lower case). */
export async function enabledUsersByEmail(
  db: DbOrTx,
  companyId: string,
  email: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), emailIs(email), isNull(users.disabledAt)))
    .limit(limit);
  return rows.map((r) => r.id);
}
