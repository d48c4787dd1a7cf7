import { type AbilityRule, DEFAULT_ROLES, RULE_PLACEHOLDERS } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDivision, insertPassage } from '../../test/support/chat-fixtures.ts';
import { createRole, signedInAs } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import { employeeDivisions, feedback, roles, userRoles } from '../db/schema/index.ts';

/**
 * The stored rules govern: a change in the roles table takes effect on the holders' next request, with no code
 * change and no new sign-in.
 */
let t: TestServer;
const db = () => t.server.ctx.db;

beforeAll(async () => {
  t = await startTestServer({ smtp: false, role: 'api' });
});
afterAll(() => t?.close());

const setRules = (roleId: string, rules: AbilityRule[]) =>
  db().update(roles).set({ rules }).where(eq(roles.id, roleId));

async function feedbackIn(companyId: string, question: string) {
  const [row] = await db()
    .insert(feedback)
    .values({ companyId, chatName: 'Fragen', origin: 'employee', givenBy: 'Kai', question, answer: 'So.' })
    .returning();
  return row!.id;
}

describe('a custom role of a staff member', () => {
  it('opens the feedback report of every company with `read Feedback`, and closes it once revoked', async () => {
    const a = await signedInAs(t, 'DataManager');
    const b = await signedInAs(t, 'DataManager');
    await feedbackIn(a.companyId!, 'Wie entlüfte ich den Heizkörper?');
    await feedbackIn(b.companyId!, 'Wann kommt der Schornsteinfeger?');
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/feedback')).status).toBe(403);

    const reports = await createRole(t, [{ action: 'read', subject: 'Feedback' }]);
    await db().insert(userRoles).values({ userId: staff.user.id, roleId: reports.id });
    const granted = await staff.client.get('/feedback?pageSize=100');
    expect(granted.status).toBe(200);
    const companies = new Set(granted.body.items.map((i: { companyId: string }) => i.companyId));
    expect([...companies]).toEqual(expect.arrayContaining([a.companyId, b.companyId]));
    expect(granted.body.items.every((i: { companyName: string | null }) => i.companyName !== null)).toBe(
      true,
    );
    expect((await staff.client.get('/feedback-series')).status).toBe(200);

    // Narrowed to one company: the condition is read in SQL, for the operator too.
    await setRules(reports.id, [
      { action: 'read', subject: 'Feedback', conditions: { companyId: a.companyId } },
    ]);
    const narrowed = await staff.client.get('/feedback?pageSize=100');
    expect(narrowed.status).toBe(200);
    expect(new Set(narrowed.body.items.map((i: { companyId: string }) => i.companyId))).toEqual(
      new Set([a.companyId]),
    );

    await setRules(reports.id, []);
    const revoked = await staff.client.get('/feedback');
    expect(revoked.status).toBe(403);
    expect(revoked.body.error.code).toBe('FORBIDDEN');
    // Still signed in: only the right is gone.
    expect((await staff.client.get('/auth/me')).status).toBe(200);
  });

  it('never takes a company user beyond their company, whatever it grants', async () => {
    const a = await signedInAs(t, 'DataManager');
    const b = await signedInAs(t, 'DataManager');
    const own = await feedbackIn(a.companyId!, 'Eigene Frage?');
    const foreign = await feedbackIn(b.companyId!, 'Fremde Frage?');
    const everything = await createRole(t, [{ action: 'manage', subject: 'all' }]);
    await db().insert(userRoles).values({ userId: a.user.id, roleId: everything.id });
    const ids = (await a.client.get('/feedback?pageSize=100')).body.items.map((i: { id: string }) => i.id);
    expect(ids).toContain(own);
    expect(ids).not.toContain(foreign);
    expect((await a.client.get(`/feedback/${foreign}`)).status).toBe(404);
    // Also where an area permission guards the view instead of the resource's rules: the processing table.
    const files = await Promise.all(
      [a.companyId!, b.companyId!].map(async (companyId) => {
        const division = await insertDivision(t, companyId);
        return (await insertPassage(t, { companyId, divisionId: division.id, text: 'Wartung' })).file.id;
      }),
    );
    const listed = (await a.client.get('/admin/files?pageSize=100')).body.items.map(
      (f: { id: string }) => f.id,
    );
    expect(listed).toContain(files[0]);
    expect(listed).not.toContain(files[1]);
  });
});

describe('a narrowed Employee rule', () => {
  it("narrows what the employee's search finds on the next request", async () => {
    const dm = await signedInAs(t, 'DataManager');
    const companyId = dm.companyId!;
    const heizung = await insertDivision(t, companyId, 'Heizung');
    const sanitaer = await insertDivision(t, companyId, 'Sanitär');
    await insertPassage(t, {
      companyId,
      divisionId: heizung.id,
      text: 'Das Heizungsventil entlüften Sie monatlich.',
    });
    await insertPassage(t, {
      companyId,
      divisionId: sanitaer.id,
      text: 'Das Spülventil entlüften Sie jährlich.',
    });
    const employee = await signedInAs(t, 'Employee', { companyId });
    await db()
      .insert(employeeDivisions)
      .values([heizung.id, sanitaer.id].map((divisionId) => ({ userId: employee.user.id, divisionId })));
    const found = async () =>
      new Set(
        (await employee.client.get('/search?q=entl%C3%BCften&mode=fulltext')).body.items.map(
          (h: { divisionName: string }) => h.divisionName,
        ),
      );
    expect(await found()).toEqual(new Set(['Heizung', 'Sanitär']));

    const [role] = await db().select().from(roles).where(eq(roles.kind, 'Employee'));
    const narrowed = DEFAULT_ROLES.Employee.rules.map((rule) =>
      rule.subject === 'Division'
        ? {
            ...rule,
            conditions: {
              ...rule.conditions,
              assignedTo: RULE_PLACEHOLDERS.userId,
              name: { $in: ['Heizung'] },
            },
          }
        : rule,
    );
    try {
      await setRules(role!.id, narrowed);
      expect(await found()).toEqual(new Set(['Heizung']));
      const divisions = (await employee.client.get('/divisions')).body.items.map(
        (d: { name: string }) => d.name,
      );
      expect(divisions).toEqual(['Heizung']);
      expect((await employee.client.get(`/search?q=entl%C3%BCften&divisionId=${sanitaer.id}`)).status).toBe(
        404,
      );
    } finally {
      await setRules(role!.id, DEFAULT_ROLES.Employee.rules);
    }
    expect(await found()).toEqual(new Set(['Heizung', 'Sanitär']));
  });
});

describe('role versions', () => {
  it('go up with every change of the rules, also one made straight in the database, and only then', async () => {
    const role = await createRole(t, [{ action: 'read', subject: 'Tag' }]);
    const version = async () => (await db().select().from(roles).where(eq(roles.id, role.id)))[0]!.version;
    expect(await version()).toBe(1);
    await db().update(roles).set({ description: 'nur die Beschreibung' }).where(eq(roles.id, role.id));
    expect(await version()).toBe(1);
    await t.server.ctx.pool.query(`update roles set rules = '[]'::jsonb where id = $1`, [role.id]);
    expect(await version()).toBe(2);
  });

  it('refuse a role whose rules the server cannot read, rather than apply part of it', async () => {
    const staff = await signedInAs(t, 'Staff');
    const broken = await createRole(t, [{ action: 'read', subject: 'Tag', conditions: { colour: 'red' } }]);
    await db().insert(userRoles).values({ userId: staff.user.id, roleId: broken.id });
    const res = await staff.client.get('/auth/me');
    expect(res.status).toBe(500);
    expect(t.logs.join('\n')).toContain(
      `role ${broken.id} has unreadable rules: Tag: unknown attribute colour`,
    );
    await setRules(broken.id, [{ action: 'read', subject: 'Tag', conditions: { companyId: 'c' } }]);
    expect((await staff.client.get('/auth/me')).status).toBe(200);
  });
});
