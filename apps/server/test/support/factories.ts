import type { AbilityRule, UserKind } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { companies, roles, userRoles, users } from '../../src/db/schema/index.ts';
import { hashPassword } from '../../src/modules/auth/password-hashing.ts';
import { signIn } from './second-factor.ts';
import type { TestServer } from './test-server.ts';

let n = 0;

/** Inserts a user of any kind straight into the database (kinds the identity API does not create yet). */
export async function createUser(
  t: TestServer,
  kind: UserKind,
  options: { companyId?: string | null; password?: string; email?: string } = {},
) {
  n++;
  const db = t.server.ctx.db;
  const password = options.password ?? 'factory-pass-1';
  let companyId = options.companyId;
  if (companyId === undefined && (kind === 'DataManager' || kind === 'Employee')) {
    const [company] = await db
      .insert(companies)
      .values({ name: `Firma ${n}` })
      .returning();
    companyId = company!.id;
  }
  const [user] = await db
    .insert(users)
    .values({
      kind,
      companyId: companyId ?? null,
      email: options.email ?? `${kind.toLowerCase()}${n}-${Date.now()}@factory.example`,
      passwordHash: await hashPassword(password),
      firstName: kind,
      lastName: String(n),
      language: 'en',
      emailVerifiedAt: new Date(),
    })
    .returning();
  const [role] = await db.select().from(roles).where(eq(roles.kind, kind));
  await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  return { user: user!, password, companyId: companyId ?? null };
}

const AREA: Record<UserKind, string> = {
  Administrator: 'admin',
  Staff: 'admin',
  DataManager: 'user',
  Employee: 'employee',
  PublicUser: 'user',
};

/** A signed-in client for a new user of the given kind. */
export async function signedInAs(t: TestServer, kind: UserKind, options: { companyId?: string | null } = {}) {
  const { user, password, companyId } = await createUser(t, kind, options);
  const client = t.client();
  const res = await signIn(t, client, { email: user.email, password, area: AREA[kind] });
  if (kind !== 'PublicUser' && res.status !== 200)
    throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return { client, user, password, companyId };
}

/** A custom role with these rules, as the back office would add one on /admin/roles. */
export async function createRole(t: TestServer, rules: AbilityRule[], name = `Rolle ${++n}-${Date.now()}`) {
  const [role] = await t.server.ctx.db.insert(roles).values({ name, rules }).returning();
  return role!;
}

/** A signed-in user of the given kind whose only role is a custom one with these rules. */
export async function signedInWithRules(
  t: TestServer,
  kind: UserKind,
  rules: AbilityRule[],
  options: { companyId?: string | null } = {},
) {
  const created = await createUser(t, kind, options);
  const role = await createRole(t, rules);
  const db = t.server.ctx.db;
  await db.delete(userRoles).where(eq(userRoles.userId, created.user.id));
  await db.insert(userRoles).values({ userId: created.user.id, roleId: role.id });
  const client = t.client();
  const res = await signIn(t, client, {
    email: created.user.email,
    password: created.password,
    area: AREA[kind],
  });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return { ...created, client, role };
}
