import { type AbilityRule, buildAbility, conditionTree, subjectOf } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import type { Actor } from '../core/actor.ts';
import { column, conditionSql, type Fields } from './rule-sql.ts';
import { tagAccess } from './tag.access.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, role: 'api' });
});
afterAll(() => t?.close());

/** Just what the translation reads of an actor. */
const actorWith = (rules: AbilityRule[], companyId: string | null = null) =>
  ({ userId: 'u1', companyId, ability: buildAbility(rules) }) as unknown as Actor;

interface Row {
  id: string;
  companyId: string;
  userId: string | null;
  visibility: string | null;
  assignedTo: string[];
  divisionsReadable: boolean;
}

const ROWS: Row[] = [
  {
    id: 'r1',
    companyId: 'c1',
    userId: 'u1',
    visibility: 'public',
    assignedTo: ['u1', 'u2'],
    divisionsReadable: true,
  },
  {
    id: 'r2',
    companyId: 'c1',
    userId: 'u2',
    visibility: 'private',
    assignedTo: [],
    divisionsReadable: false,
  },
  {
    id: 'r3',
    companyId: 'c2',
    userId: null,
    visibility: 'public',
    assignedTo: ['u3'],
    divisionsReadable: true,
  },
  { id: 'r4', companyId: 'c2', userId: 'u1', visibility: null, assignedTo: ['u2'], divisionsReadable: false },
];

/** The rows as a relation `c` with one column per attribute (a set as a text array, a fact as a boolean). */
const rowsSql = sql`(values ${sql.join(
  ROWS.map(
    (r) =>
      sql`(${r.id}, ${r.companyId}, ${r.userId}::text, ${r.visibility}::text, ${`{${r.assignedTo.join(',')}}`}::text[], ${r.divisionsReadable}::boolean)`,
  ),
  sql`, `,
)}) as c(id, company_id, user_id, visibility, assigned_to, readable)`;

const FIELDS: Fields = {
  id: column('id'),
  companyId: column('company_id'),
  userId: column('user_id'),
  visibility: column('visibility'),
  assignedTo: {
    members: (row, values) =>
      sql`${row}.assigned_to && array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`,
  },
  divisionsReadable: { holds: (row) => sql`${row}.readable` },
};

async function selected(where: SQL): Promise<string[]> {
  const { rows } = await t.server.ctx.db.execute<{ id: string }>(
    sql`select c.id from ${rowsSql} where ${where} order by c.id`,
  );
  return rows.map((r) => r.id);
}

const read = (conditions?: Record<string, unknown>, inverted = false): AbilityRule => ({
  action: 'read',
  subject: 'Chat',
  ...(conditions ? { conditions } : {}),
  ...(inverted ? { inverted } : {}),
});

const RULE_SETS: Array<[string, AbilityRule[]]> = [
  ['plain equality', [read({ companyId: 'c1' })]],
  ['several attributes of one rule all hold', [read({ companyId: 'c2', visibility: 'public' })]],
  ['two rules are alternatives', [read({ userId: 'u2' }), read({ visibility: 'public' })]],
  ['$eq', [read({ visibility: { $eq: 'private' } })]],
  ['$ne also matches no value', [read({ userId: { $ne: 'u1' } })]],
  ['equality with null means no value', [read({ visibility: null })]],
  ['$ne null means some value', [read({ visibility: { $ne: null } })]],
  ['$in', [read({ userId: { $in: ['u2', 'u9'] } })]],
  ['$in with null', [read({ userId: { $in: ['u2', null] } })]],
  ['an empty $in matches nothing', [read({ id: { $in: [] } })]],
  ['$nin also matches no value', [read({ userId: { $nin: ['u1'] } })]],
  ['an empty $nin matches everything', [read({ id: { $nin: [] } })]],
  ['a set holds the value', [read({ assignedTo: 'u2' })]],
  ['a set holds one of the values', [read({ assignedTo: { $in: ['u3', 'u9'] } })]],
  ['a set lacks the value', [read({ assignedTo: { $ne: 'u2' } })]],
  ['a set holds none of the values', [read({ assignedTo: { $nin: ['u1', 'u3'] } })]],
  ['a fact holds', [read({ divisionsReadable: true })]],
  ['a fact does not hold', [read({ divisionsReadable: false })]],
  ['a fact with $ne', [read({ divisionsReadable: { $ne: true } })]],
  [
    'a later inverted rule cuts out of an earlier one',
    [read({ companyId: 'c1' }), read({ userId: 'u2' }, true)],
  ],
  [
    'an earlier inverted rule does not cut out of a later one',
    [read({ userId: 'u2' }, true), read({ companyId: 'c1' })],
  ],
  [
    'an unconditional inverted rule after a rule leaves nothing',
    [read({ companyId: 'c1' }), read(undefined, true)],
  ],
  ['an unconditional rule', [read()]],
  ['no rule', []],
];

describe('rules in SQL read exactly as CASL reads them on an object', () => {
  it.each(RULE_SETS)('%s', async (_name, rules) => {
    const ability = buildAbility(rules);
    const expected = ROWS.filter((r) => ability.can('read', subjectOf('Chat', { ...r }))).map((r) => r.id);
    const tree = conditionTree(ability, 'read', 'Chat');
    const actual = tree ? await selected(conditionSql(tree, FIELDS, sql`c`, actorWith(rules))) : [];
    expect(actual).toEqual(expected);
  });

  it('refuses an attribute it cannot read rather than ignoring it', () => {
    const ability = buildAbility([read({ owner: 'u1' })]);
    expect(() =>
      conditionSql(conditionTree(ability, 'read', 'Chat')!, FIELDS, sql`c`, actorWith([])),
    ).toThrow(/cannot read: unknown attribute owner/);
  });
});

describe('company isolation', () => {
  const tags = sql`(values ('t1', 'c1'), ('t2', 'c2')) as tags(id, company_id)`;
  const visible = async (actor: Actor) => {
    const { rows } = await t.server.ctx.db.execute<{ id: string }>(
      sql`select tags.id from ${tags} where ${tagAccess.where(actor, 'read')} order by tags.id`,
    );
    return rows.map((r) => r.id);
  };

  it('keeps a company user in their company, whatever their rules say', async () => {
    const everything: AbilityRule[] = [{ action: 'manage', subject: 'all' }];
    expect(await visible(actorWith(everything, 'c1'))).toEqual(['t1']);
    expect(
      await visible(actorWith([{ action: 'read', subject: 'Tag', conditions: { companyId: 'c2' } }], 'c1')),
    ).toEqual([]);
  });

  it('binds a caller of no company (the operator) by their rules alone', async () => {
    expect(await visible(actorWith([{ action: 'read', subject: 'Tag' }]))).toEqual(['t1', 't2']);
    expect(
      await visible(actorWith([{ action: 'read', subject: 'Tag', conditions: { companyId: 'c2' } }])),
    ).toEqual(['t2']);
    expect(await visible(actorWith([{ action: 'read', subject: 'Division' }]))).toEqual([]);
  });
});
