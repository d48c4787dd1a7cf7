import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import {
  connectByConsent,
  consentInBrowser,
  expectConsentRoutesGuarded,
} from '../../../test/support/connector-consent.ts';
import { allReady, answerTexts, synced } from '../../../test/support/connector-sync.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { TestGraph } from '../../../test/support/graph-server.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { connectors } from '../../db/schema/index.ts';

let graph: TestGraph;
let t: TestServer;
let operator: ApiClient;
beforeAll(async () => {
  graph = await TestGraph.start();
  // The operator allows the test's stand-in for Microsoft (login and Graph on one loopback port); every other
  // private address stays refused by the outbound policy.
  t = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${graph.port}` } });
  operator = (await signedInAs(t, 'Administrator')).client;
});
afterAll(async () => {
  await t?.close();
  await graph?.stop();
});

let folders = 0;
/** A folder of its own in the drive, with these files. */
function folderWith(files: Record<string, string>): string {
  const name = `Ordner ${++folders}`;
  for (const [path, text] of Object.entries(files)) graph.put(`${name}/${path}`, text);
  return name;
}

async function registerApp() {
  const saved = await operator.request('PUT', '/admin/microsoft-app', graph.app);
  expect(saved.status).toBe(200);
  return saved.body;
}

const consent = (client: ApiClient, divisionId: string, body: Record<string, unknown>) =>
  consentInBrowser(client, 'microsoft365', divisionId, body);
const connect = (client: ApiClient, divisionId: string, body: Record<string, unknown>) =>
  connectByConsent(client, 'microsoft365', divisionId, body);

describe('a Microsoft 365 folder kept in sync through Graph delta queries', () => {
  it('adds, changes, renames and removes files as the drive does, reading an unchanged file once', async () => {
    await registerApp();
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Heizung' })).body.id;
    const folder = folderWith({
      'Preise/Preisliste.txt': 'Die Wartung der Wärmepumpe kostet 189 Euro pauschal.',
      'Handbuch.md': '# Kessel\n\nDer Kessel wird jährlich entlüftet.',
      'Alt.txt': 'Das Ventil Modell Kranich ist abgekündigt.',
      'Notiz.txt': 'Der Schornsteinfeger kommt im Oktober.',
      'Bild.exe': 'MZ',
    });
    // Beside the folder: never taken.
    graph.put('Anderswo/Fremd.txt', 'Gehört nicht dazu.');
    const created = await connect(client, divisionId, { name: 'SharePoint', driveId: graph.driveId, folder });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'microsoft365', userName: graph.account, folder });
    const [row] = await t.server.ctx.db.select().from(connectors).where(eq(connectors.id, created.body.id));
    expect(row!.secretSealed).not.toContain('rt-');
    expect(JSON.stringify(created.body)).not.toContain('rt-');
    const first = await synced(client, created.body.id);
    expect(first.lastResult).toMatchObject({ added: 4, changed: 0, renamed: 0, removed: 0 });
    expect(first.lastError).toBeNull();
    const before = await allReady(client, divisionId);
    expect(before.map((f) => f.source?.path).sort()).toEqual([
      'Alt.txt',
      'Handbuch.md',
      'Notiz.txt',
      'Preise/Preisliste.txt',
    ]);
    expect((await answerTexts(client, 'Was kostet die Wartung der Wärmepumpe?'))[0]).toContain('189 Euro');

    // Changed, moved into another folder (the same item id), deleted; one untouched. Graph throttles once, and the
    // access token has expired: the sync waits as Retry-After says and redeems the refresh token again.
    graph.put(`${folder}/Preise/Preisliste.txt`, 'Die Wartung der Wärmepumpe kostet jetzt 214 Euro.');
    graph.move(`${folder}/Handbuch.md`, `${folder}/Archiv/Kesselhandbuch.md`);
    graph.remove(`${folder}/Alt.txt`);
    graph.expireAccessTokens();
    graph.throttleOnce();
    const refreshesBefore = graph.tokenGrants.filter((g) => g === 'refresh_token').length;
    expect((await client.post(`/connectors/${created.body.id}/sync`)).status).toBe(202);
    const second = await synced(client, created.body.id, first.lastSyncAt);
    expect(second.lastError).toBeNull();
    expect(second.lastResult).toMatchObject({ added: 0, changed: 1, renamed: 1, removed: 1, unchanged: 1 });
    expect(graph.throttled).toBe(1);
    expect(graph.tokenGrants.filter((g) => g === 'refresh_token').length).toBeGreaterThan(refreshesBefore);
    const after = await allReady(client, divisionId);
    expect(after.map((f) => f.source?.path).sort()).toEqual([
      'Archiv/Kesselhandbuch.md',
      'Notiz.txt',
      'Preise/Preisliste.txt',
    ]);
    const handbook = before.find((f) => f.name === 'Handbuch.md')!;
    expect(after.find((f) => f.name === 'Kesselhandbuch.md')?.id).toBe(handbook.id);
    expect(after.find((f) => f.name === 'Preisliste.txt')?.id).toBe(
      before.find((f) => f.name === 'Preisliste.txt')?.id,
    );
    const answers = await answerTexts(client, 'Was kostet die Wartung der Wärmepumpe?');
    expect(answers[0]).toContain('214 Euro');
    expect(answers.join(' ')).not.toContain('189 Euro');
    expect(graph.downloads(`${folder}/Notiz.txt`)).toBe(1);
    expect(graph.downloads(`${folder}/Archiv/Kesselhandbuch.md`)).toBe(1);
    expect(graph.downloads(`${folder}/Preise/Preisliste.txt`)).toBe(2);

    // A renamed folder: only the folder is in the feed, its files keep their identity under the new path. A file
    // moved and changed at once is still the same file (by its item id), read again.
    const note = after.find((f) => f.name === 'Notiz.txt')!;
    graph.move(`${folder}/Archiv`, `${folder}/Altbestand`);
    graph.move(`${folder}/Notiz.txt`, `${folder}/Notizen/Termine.txt`);
    graph.put(`${folder}/Notizen/Termine.txt`, 'Der Schornsteinfeger kommt im November.');
    await client.post(`/connectors/${created.body.id}/sync`);
    const third = await synced(client, created.body.id, second.lastSyncAt);
    expect(third.lastResult).toMatchObject({ added: 0, changed: 1, renamed: 2, removed: 0, unchanged: 1 });
    const moved = await allReady(client, divisionId);
    expect(moved.find((f) => f.id === handbook.id)?.source?.path).toBe('Altbestand/Kesselhandbuch.md');
    expect(moved.find((f) => f.id === note.id)?.source?.path).toBe('Notizen/Termine.txt');
    expect((await answerTexts(client, 'Wann kommt der Schornsteinfeger?')).join(' ')).toContain('November');

    // Without changes nothing is read; neither when Graph no longer honours the delta link and the drive is
    // enumerated afresh (410 Gone): the same versions are the same files.
    graph.expireDeltaLinks();
    await client.post(`/connectors/${created.body.id}/sync`);
    const fourth = await synced(client, created.body.id, third.lastSyncAt);
    expect(fourth.lastError).toBeNull();
    expect(graph.resyncs).toBe(1);
    expect(fourth.lastResult).toMatchObject({ added: 0, changed: 0, renamed: 0, removed: 0, unchanged: 3 });
    expect(graph.downloads(`${folder}/Preise/Preisliste.txt`)).toBe(2);
    expect(graph.downloads(`${folder}/Altbestand/Kesselhandbuch.md`)).toBe(1);
    expect(graph.downloads(`${folder}/Notizen/Termine.txt`)).toBe(2);
  }, 120_000);

  it('pauses at once when the consent is withdrawn, with a translated reason, and mails whoever connected it', async () => {
    await registerApp();
    const { client, email } = await signedInDataManager(t, { language: 'de' });
    const divisionId = (await client.post('/divisions', { name: 'Widerruf' })).body.id;
    const folder = folderWith({ 'a.txt': 'Inhalt A' });
    const created = await connect(client, divisionId, { name: 'OneDrive Anna', folder });
    expect(created.status).toBe(201);
    const first = await synced(client, created.body.id);
    expect(first.lastResult.added).toBe(1);

    graph.revokeConsent();
    await client.post(`/connectors/${created.body.id}/sync`);
    const last = await synced(client, created.body.id, first.lastSyncAt);
    expect(last).toMatchObject({ status: 'paused', lastErrorCode: 'revoked', failureCount: 1 });
    expect(last.lastError).toBe(
      'Microsoft 365 hat den Zugriff zurückgezogen (Zustimmung widerrufen oder abgelaufen). Verbinden Sie den Ordner neu.',
    );
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('OneDrive Anna'));
    expect(mail.text).toContain('Microsoft 365 hat den Zugriff zurückgezogen');
    expect((await client.post(`/connectors/${created.body.id}/sync`)).body.error.code).toBe(
      'CONNECTOR_PAUSED',
    );
  }, 60_000);
});

describe('connecting Microsoft 365', () => {
  it('needs the operator’s app; refuses a forged, foreign or reused consent and a missing folder', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Zustimmung' })).body.id;
    await t.server.ctx.db.execute('delete from microsoft_app');
    const unconfigured = await client.post(`/divisions/${divisionId}/connectors/microsoft365/consent`, {
      name: 'X',
    });
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.error.code).toBe('MICROSOFT_APP_UNCONFIGURED');
    // The secret is needed the first time; afterwards an empty one keeps it, and it is never shown.
    const noSecret = await operator.request('PUT', '/admin/microsoft-app', {
      ...graph.app,
      clientSecret: '',
    });
    expect(noSecret.status).toBe(422);
    const app = await registerApp();
    expect(app).toMatchObject({ configured: true, clientSecretSet: true, clientId: graph.clientId });
    expect(app.redirectUri).toMatch(/\/connectors\/microsoft365\/callback$/);
    const kept = await operator.request('PUT', '/admin/microsoft-app', { ...graph.app, clientSecret: '' });
    expect(kept.status).toBe(200);
    expect(JSON.stringify((await operator.get('/admin/microsoft-app')).body)).not.toContain(
      graph.clientSecret,
    );

    const folder = folderWith({ 'b.txt': 'Inhalt B' });
    const started = await client.post(`/divisions/${divisionId}/connectors/microsoft365/consent`, {
      name: 'SharePoint',
      driveId: graph.driveId,
      folder,
    });
    const address = new URL(started.body.authorizationUrl);
    expect(address.origin).toBe(graph.url);
    expect(address.pathname).toBe('/organizations/oauth2/v2.0/authorize');
    expect(address.searchParams.get('code_challenge_method')).toBe('S256');
    expect(address.searchParams.get('scope')).toContain('offline_access');

    // Another data manager (another company) cannot complete this one's consent; nor can a forged state.
    const { code, state } = await consent(client, divisionId, { name: 'SharePoint', folder });
    const other = await signedInDataManager(t, { language: 'en' });
    const foreign = await other.client.post('/connectors/microsoft365/complete', { code, state });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('CONNECTOR_CONSENT_INVALID');
    const forged = await client.post('/connectors/microsoft365/complete', { code, state: `${state}x` });
    expect(forged.body.error.code).toBe('CONNECTOR_CONSENT_INVALID');
    expect((await client.post('/connectors/microsoft365/complete', { code, state })).status).toBe(201);
    // A code is redeemed once.
    const reused = await client.post('/connectors/microsoft365/complete', { code, state });
    expect(reused.body.error.code).toBe('CONNECTOR_CONSENT_FAILED');

    const missing = await connect(client, divisionId, { name: 'Fehlt', folder: 'gibt es nicht' });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({
      code: 'CONNECTOR_UNREACHABLE',
      details: { reason: 'not-found' },
    });
    const wrongDrive = await connect(client, divisionId, { name: 'Fehlt', driveId: 'b!nicht-da', folder });
    expect(wrongDrive.body.error.details.reason).toBe('not-found');
    // Declined at Microsoft: the browser comes back with an error and no code.
    graph.denyConsent = true;
    const declined = await consent(client, divisionId, { name: 'Nein', folder });
    graph.denyConsent = false;
    expect(declined).toMatchObject({ code: null, error: 'access_denied' });
    for (const bad of [
      { driveId: 'a/b' },
      { folder: 'a/../b' },
      { intervalMinutes: 1 },
      { extra: true },
      {},
    ]) {
      const res = await client.post(`/divisions/${divisionId}/connectors/microsoft365/consent`, {
        name: 'X',
        ...bad,
        ...(Object.keys(bad).length === 0 ? { name: '' } : {}),
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await client.get(`/divisions/${divisionId}/connectors`)).body.items).toHaveLength(1);
  }, 60_000);

  it('is the data manager’s and the operator’s: 401 without a session, 403 for others, 404 across companies', () =>
    expectConsentRoutesGuarded(t, 'microsoft365', '/admin/microsoft-app', graph.app));
});
