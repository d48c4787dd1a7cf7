import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';

// Who gets which answer on each route is the access matrix's (access-matrix.test.ts).
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ smtp: false, role: 'api' });
});
afterAll(() => t?.close());

const apiRoutes = () =>
  t.server.app!.routeTable.filter(
    // The OAuth server's own endpoints are described by its metadata (RFC 8414), not by the OpenAPI document.
    (r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && r.permission !== 'oauthServer',
  );

describe('every route declares its permission', () => {
  it('has no route without a permission or an explicit public marker', () => {
    const all = t.server.app!.routeTable;
    expect(all.length).toBeGreaterThan(15);
    const undeclared = all.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
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
