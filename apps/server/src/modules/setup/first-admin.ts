import { passwordField } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { roles, userRoles, users } from '../../db/schema/index.ts';
import { hashPassword } from '../auth/password-hashing.ts';

export type FirstAdminOutcome =
  | { state: 'exists' }
  | { state: 'created'; email: string; passwordFrom: 'ADMIN_PASSWORD' }
  | { state: 'setup-link'; email: string; link: string };

/**
 * Makes sure an administrator exists. With ADMIN_PASSWORD it gets that password; otherwise a one-time setup link
 * (valid 7 days, a new one at each start until the password is set) is returned for the log.
 */
export async function ensureFirstAdmin(ctx: AppContext): Promise<FirstAdminOutcome> {
  const { ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = ctx.config;
  if (password !== undefined && !passwordField.safeParse(password).success) {
    throw new Error(
      'ADMIN_PASSWORD does not meet the password policy (at least 8 characters, one lowercase letter, and one number, symbol or space)',
    );
  }
  const passwordHash = password ? await hashPassword(password) : null;
  const { general } = await ctx.settings.current();
  return ctx.db.transaction(async (tx) => {
    const [admin] = await tx.select().from(users).where(eq(users.kind, 'Administrator')).limit(1);
    if (admin?.passwordHash) return { state: 'exists' as const };
    let adminId = admin?.id;
    if (!adminId) {
      const [created] = await tx
        .insert(users)
        .values({
          kind: 'Administrator',
          email,
          passwordHash,
          firstName: 'Administrator',
          lastName: '',
          language: general.defaultLanguage,
          emailVerifiedAt: new Date(),
        })
        .returning({ id: users.id });
      adminId = created!.id;
      const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.kind, 'Administrator'));
      await tx.insert(userRoles).values({ userId: adminId, roleId: role!.id });
    } else if (passwordHash) {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, adminId));
    }
    if (passwordHash)
      return {
        state: 'created' as const,
        email: admin?.email ?? email,
        passwordFrom: 'ADMIN_PASSWORD' as const,
      };
    const token = await issueUserToken(tx, adminId, 'set_password');
    return {
      state: 'setup-link' as const,
      email: admin?.email ?? email,
      link: `${general.publicUrl}/setPassword?token=${token}`,
    };
  });
}
