import { expect } from 'vitest';
import type { ApiClient } from './api-client.ts';
import { signedInAs } from './factories.ts';
import { signedInDataManager, type TestServer } from './test-server.ts';

/**
 * A consent as the browser goes through it (Microsoft 365, Google Drive): the server's address of the vendor's consent
 * page, the vendor's redirect back (the tests' doubles answer at once), and what it carries.
 */
export async function consentInBrowser(
  client: ApiClient,
  kind: 'microsoft365' | 'googledrive',
  divisionId: string,
  body: Record<string, unknown>,
) {
  const started = await client.post(`/divisions/${divisionId}/connectors/${kind}/consent`, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const page = await fetch(started.body.authorizationUrl, { redirect: 'manual' });
  expect(page.status).toBe(302);
  const back = new URL(page.headers.get('location')!);
  return {
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
    error: back.searchParams.get('error'),
  };
}

/** Connects a folder by consent: the consent, then the code handed to the server as the callback page does. */
export async function connectByConsent(
  client: ApiClient,
  kind: 'microsoft365' | 'googledrive',
  divisionId: string,
  body: Record<string, unknown>,
) {
  const { code, state } = await consentInBrowser(client, kind, divisionId, body);
  return client.post(`/connectors/${kind}/complete`, { code, state });
}

/**
 * The routes of a kind connected by consent are the data manager's and the operator's: 401 without a session, 403
 * for an employee (consent) and a data manager (the app), 404 for another company's division.
 */
export async function expectConsentRoutesGuarded(
  t: TestServer,
  kind: 'microsoft365' | 'googledrive',
  appPath: string,
  appBody: Record<string, unknown>,
) {
  const { client } = await signedInDataManager(t, { language: 'en' });
  const divisionId = (await client.post('/divisions', { name: 'Rechte' })).body.id;
  const consent = `/divisions/${divisionId}/connectors/${kind}/consent`;
  const complete = `/connectors/${kind}/complete`;
  const anonymous = t.client();
  expect((await anonymous.post(consent, { name: 'X' })).status).toBe(401);
  expect((await anonymous.post(complete, { code: 'c', state: 's' })).status).toBe(401);
  expect((await anonymous.get(appPath)).status).toBe(401);
  expect((await anonymous.request('PUT', appPath, appBody)).status).toBe(401);
  const employee = await signedInAs(t, 'Employee');
  expect((await employee.client.post(consent, { name: 'X' })).status).toBe(403);
  expect((await employee.client.post(complete, { code: 'c', state: 's' })).status).toBe(403);
  expect((await client.get(appPath)).status).toBe(403);
  expect((await client.request('PUT', appPath, appBody)).status).toBe(403);
  const other = await signedInDataManager(t, { language: 'en' });
  expect((await other.client.post(consent, { name: 'X' })).status).toBe(404);
}
