import { rmSync } from 'node:fs';
import { DEFAULT_ROLES, EARLIER_DEFAULT_RULES } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { roles } from '../../db/schema/index.ts';
import { seedRoles } from './seed-roles.ts';

let t: TestServer | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const employeeRules = async (server: TestServer) =>
  (await server.server.ctx.db.select().from(roles).where(eq(roles.kind, 'Employee')))[0]!.rules;

describe('seeding the default roles', () => {
  it('upgrades an Employee role still equal to an earlier default, and leaves an edited one alone', async () => {
    const first = await startTestServer({ smtp: false });
    dataDir = first.dataDir;
    const oldRules = EARLIER_DEFAULT_RULES.Employee![0]!;
    await first.server.ctx.db.update(roles).set({ rules: oldRules }).where(eq(roles.kind, 'Employee'));
    const before = await signedInAs(first, 'Employee');
    const rulesBefore = (await before.client.get('/auth/me')).body.userAbilityRules;
    expect(rulesBefore).toContainEqual(expect.objectContaining({ action: 'manage', subject: 'Chat' }));
    await first.server.close();

    // The next start on the same data finds the untouched old default and replaces it.
    t = await startTestServer({ smtp: false, dataDir });
    expect(await employeeRules(t)).toEqual(DEFAULT_ROLES.Employee.rules);
    const login = await t.client().post('/auth/login', {
      email: before.user.email,
      password: before.password,
      area: 'employee',
    });
    expect(login.status).toBe(200);
    expect(login.body.userAbilityRules).not.toContainEqual(
      expect.objectContaining({ action: 'manage', subject: 'Chat' }),
    );

    // An administrator's edit (here: an extra permission) survives every later seed.
    const edited = [...oldRules, { action: 'read' as const, subject: 'analysis' as const }];
    await t.server.ctx.db.update(roles).set({ rules: edited }).where(eq(roles.kind, 'Employee'));
    await seedRoles(t.server.ctx.db);
    expect(await employeeRules(t)).toEqual(edited);
  });
});
