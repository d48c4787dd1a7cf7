import { buildAbility, DEFAULT_ROLES, interpolateRules, USER_KINDS, type UserKind } from '@werkwissen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';

let t: TestServer;
const clients = new Map<UserKind, Awaited<ReturnType<typeof signedInAs>>['client']>();

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  for (const kind of USER_KINDS.filter((k) => k !== 'PublicUser')) {
    clients.set(kind, (await signedInAs(t, kind)).client);
  }
});
afterAll(() => t?.close());

const apiRoutes = () =>
  t.server.app!.routeTable.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD');
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

describe('every route declares its permission', () => {
  it('has no route without a permission or an explicit public marker', () => {
    const all = t.server.app!.routeTable;
    expect(all.length).toBeGreaterThan(15);
    const undeclared = all.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it('answers 401 without a session on every route that is not public', async () => {
    const guarded = apiRoutes().filter((r) => r.permission !== 'public');
    expect(guarded.length).toBeGreaterThan(5);
    for (const route of guarded) {
      const res = await t
        .client()
        .request(route.method, concrete(route.url).replace('/api/v1', ''), undefined);
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers 403 to every role whose rules lack the route permission', async () => {
    let checked = 0;
    for (const route of apiRoutes()) {
      const permission = route.permission;
      if (!permission || typeof permission === 'string') continue;
      for (const kind of clients.keys()) {
        const ability = buildAbility(
          interpolateRules(DEFAULT_ROLES[kind].rules, { user: { id: 'u', companyId: 'c' } }),
        );
        if (ability.can(permission.action, permission.subject)) continue;
        const res = await clients
          .get(kind)!
          .request(route.method, concrete(route.url).replace('/api/v1', ''), undefined);
        expect(res.status, `${kind} on ${route.method} ${route.url}`).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('lists each route with its permission in the OpenAPI document', async () => {
    const doc = (await t.client().get('/openapi.json')).body;
    for (const route of apiRoutes().filter((r) => r.url !== '/api/v1/openapi.json')) {
      const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op.operationId).toBeTruthy();
      expect(op.description).toMatch(/Public|signed-in|Requires permission/);
    }
  });
});
