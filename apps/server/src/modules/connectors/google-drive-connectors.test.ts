import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import {
  connectByConsent,
  consentInBrowser,
  expectConsentRoutesGuarded,
} from '../../../test/support/connector-consent.ts';
import { allReady, answerTexts, synced } from '../../../test/support/connector-sync.ts';
import { makeDocx } from '../../../test/support/documents.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { TestGoogleDrive } from '../../../test/support/google-drive-server.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { connectors } from '../../db/schema/index.ts';

let google: TestGoogleDrive;
let t: TestServer;
let operator: ApiClient;
beforeAll(async () => {
  google = await TestGoogleDrive.start();
  // The operator allows the test's stand-in for Google (OAuth and Drive on one loopback port); every other private
  // address stays refused by the outbound policy.
  t = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${google.port}` } });
  operator = (await signedInAs(t, 'Administrator')).client;
});
afterAll(async () => {
  await t?.close();
  await google?.stop();
});

let folders = 0;
/** A folder of its own in My Drive (or below `@shared/`), with these files. */
function folderWith(files: Record<string, string>, under = ''): string {
  const name = `${under}Ordner ${++folders}`;
  for (const [path, text] of Object.entries(files)) google.put(`${name}/${path}`, text);
  return name;
}

async function registerApp() {
  const saved = await operator.request('PUT', '/admin/google-app', google.app);
  expect(saved.status).toBe(200);
  return saved.body;
}

const consent = (client: ApiClient, divisionId: string, body: Record<string, unknown>) =>
  consentInBrowser(client, 'googledrive', divisionId, body);
const connect = (client: ApiClient, divisionId: string, body: Record<string, unknown>) =>
  connectByConsent(client, 'googledrive', divisionId, body);

describe('a Google Drive folder kept in sync through the changes API', () => {
  it('adds, changes, renames and removes files as the drive does, reading an unchanged file once', async () => {
    await registerApp();
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Heizung' })).body.id;
    const folder = folderWith({
      'Preise/Preisliste.txt': 'Die Wartung der Wärmepumpe kostet 189 Euro pauschal.',
      'Handbuch.md': '# Kessel\n\nDer Kessel wird jährlich entlüftet.',
      'Alt.txt': 'Das Ventil Modell Kranich ist abgekündigt.',
      'Entwurf.txt': 'Der Entwurf für die Fußbodenheizung ist nicht freigegeben.',
      'Notiz.txt': 'Der Schornsteinfeger kommt im Oktober.',
      'Bild.exe': 'MZ',
    });
    // A Google Doc: exported as Word, since it has no content of its own.
    google.putDoc(
      `${folder}/Wartungsplan`,
      await makeDocx([{ text: 'Der Brenner wird im Frühjahr gereinigt.' }]),
    );
    // Beside the folder: not taken, until it is moved in.
    google.put('Anderswo/Fremd.txt', 'Die Solaranlage liefert 9 Kilowatt.');
    const created = await connect(client, divisionId, { name: 'Drive', folder });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'googledrive',
      url: `${google.app.driveUrl}/`,
      userName: google.account,
      folder,
    });
    const [row] = await t.server.ctx.db.select().from(connectors).where(eq(connectors.id, created.body.id));
    expect(row!.secretSealed).not.toContain('1//0');
    expect(row!.remoteFolderId).toBe(google.idOf(folder));
    expect(JSON.stringify(created.body)).not.toContain('1//0');
    const first = await synced(client, created.body.id);
    expect(first.lastError).toBeNull();
    expect(first.lastResult).toMatchObject({ added: 6, changed: 0, renamed: 0, removed: 0 });
    const before = await allReady(client, divisionId);
    expect(before.map((f) => f.source?.path).sort()).toEqual([
      'Alt.txt',
      'Entwurf.txt',
      'Handbuch.md',
      'Notiz.txt',
      'Preise/Preisliste.txt',
      'Wartungsplan.docx',
    ]);
    expect(before.every((f) => f.status === 'ready')).toBe(true);
    expect((await answerTexts(client, 'Was kostet die Wartung der Wärmepumpe?'))[0]).toContain('189 Euro');
    expect((await answerTexts(client, 'Wann wird der Brenner gereinigt?')).join(' ')).toContain('Frühjahr');

    // Changed, moved into another folder (the same file id), deleted for good, trashed; the rest untouched. Drive
    // throttles once, and the access token has expired: the sync waits as Retry-After says and refreshes.
    google.put(`${folder}/Preise/Preisliste.txt`, 'Die Wartung der Wärmepumpe kostet jetzt 214 Euro.');
    google.move(`${folder}/Handbuch.md`, `${folder}/Archiv/Kesselhandbuch.md`);
    google.remove(`${folder}/Alt.txt`);
    google.trash(`${folder}/Entwurf.txt`);
    google.expireAccessTokens();
    google.throttleOnce(429);
    const refreshesBefore = google.tokenGrants.filter((g) => g === 'refresh_token').length;
    expect((await client.post(`/connectors/${created.body.id}/sync`)).status).toBe(202);
    const second = await synced(client, created.body.id, first.lastSyncAt);
    expect(second.lastError).toBeNull();
    expect(second.lastResult).toMatchObject({ added: 0, changed: 1, renamed: 1, removed: 2, unchanged: 2 });
    expect(google.throttled).toBe(1);
    expect(google.tokenGrants.filter((g) => g === 'refresh_token').length).toBeGreaterThan(refreshesBefore);
    const after = await allReady(client, divisionId);
    expect(after.map((f) => f.source?.path).sort()).toEqual([
      'Archiv/Kesselhandbuch.md',
      'Notiz.txt',
      'Preise/Preisliste.txt',
      'Wartungsplan.docx',
    ]);
    const handbook = before.find((f) => f.name === 'Handbuch.md')!;
    expect(after.find((f) => f.name === 'Kesselhandbuch.md')?.id).toBe(handbook.id);
    const answers = await answerTexts(client, 'Was kostet die Wartung der Wärmepumpe?');
    expect(answers[0]).toContain('214 Euro');
    expect(answers.join(' ')).not.toContain('189 Euro');
    expect((await answerTexts(client, 'Entwurf Fußbodenheizung')).join(' ')).not.toContain('Entwurf');
    expect(google.downloads(`${folder}/Notiz.txt`)).toBe(1);
    expect(google.downloads(`${folder}/Archiv/Kesselhandbuch.md`)).toBe(1);
    expect(google.downloads(`${folder}/Preise/Preisliste.txt`)).toBe(2);
    expect(google.exports(`${folder}/Wartungsplan`)).toBe(1);

    // A renamed folder keeps its files' identity under the new path; a folder moved in from elsewhere brings its
    // files along (only the folder is in the changes); an edited Google Doc is exported again. Drive throttles with
    // 403 userRateLimitExceeded this time, without Retry-After: the sync backs off and goes on.
    google.move(`${folder}/Archiv`, `${folder}/Altbestand`);
    google.move('Anderswo', `${folder}/Anderswo`);
    google.putDoc(
      `${folder}/Wartungsplan`,
      await makeDocx([{ text: 'Der Brenner wird jetzt im Herbst gereinigt.' }]),
    );
    google.throttleOnce(403);
    await client.post(`/connectors/${created.body.id}/sync`);
    const third = await synced(client, created.body.id, second.lastSyncAt);
    expect(third.lastError).toBeNull();
    expect(google.throttled).toBe(2);
    expect(third.lastResult).toMatchObject({ added: 1, changed: 1, renamed: 1, removed: 0, unchanged: 2 });
    const moved = await allReady(client, divisionId);
    expect(moved.find((f) => f.id === handbook.id)?.source?.path).toBe('Altbestand/Kesselhandbuch.md');
    expect(moved.map((f) => f.source?.path)).toContain('Anderswo/Fremd.txt');
    expect((await answerTexts(client, 'Wann wird der Brenner gereinigt?')).join(' ')).toContain('Herbst');
    expect(google.exports(`${folder}/Wartungsplan`)).toBe(2);

    // Without changes nothing is read.
    await client.post(`/connectors/${created.body.id}/sync`);
    const fourth = await synced(client, created.body.id, third.lastSyncAt);
    expect(fourth.lastResult).toMatchObject({ added: 0, changed: 0, renamed: 0, removed: 0, unchanged: 5 });
    expect(google.downloads(`${folder}/Preise/Preisliste.txt`)).toBe(2);
    expect(google.downloads(`${folder}/Anderswo/Fremd.txt`)).toBe(1);
    expect(google.exports(`${folder}/Wartungsplan`)).toBe(2);
  }, 120_000);

  it('syncs a shared drive’s folder given by id, and pauses at once when the access is withdrawn', async () => {
    await registerApp();
    const { client, email } = await signedInDataManager(t, { language: 'de' });
    const divisionId = (await client.post('/divisions', { name: 'Widerruf' })).body.id;
    const folder = folderWith({ 'Bau/plan.txt': 'Der Rohbau wird im Mai abgenommen.' }, '@shared/');
    google.put('@shared/Daneben.txt', 'Nicht im Ordner.');
    const created = await connect(client, divisionId, {
      name: 'Werkstatt-Drive',
      driveId: google.sharedDriveId,
      folderId: google.idOf(folder),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      url: `${google.app.driveUrl}/drives/${google.sharedDriveId}/`,
      folder: folder.slice('@shared/'.length),
    });
    const first = await synced(client, created.body.id);
    expect(first.lastResult.added).toBe(1);
    expect((await allReady(client, divisionId)).map((f) => f.source?.path)).toEqual(['Bau/plan.txt']);
    google.put(`${folder}/Bau/plan.txt`, 'Der Rohbau wird im Juni abgenommen.');
    await client.post(`/connectors/${created.body.id}/sync`);
    const second = await synced(client, created.body.id, first.lastSyncAt);
    expect(second.lastResult).toMatchObject({ added: 0, changed: 1, removed: 0 });

    google.revokeConsent();
    await client.post(`/connectors/${created.body.id}/sync`);
    const last = await synced(client, created.body.id, second.lastSyncAt);
    expect(last).toMatchObject({ status: 'paused', lastErrorCode: 'revoked', failureCount: 1 });
    expect(last.lastError).toBe(
      'Google Drive hat den Zugriff zurückgezogen (Zustimmung widerrufen oder abgelaufen). Verbinden Sie den Ordner neu.',
    );
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('Werkstatt-Drive'));
    expect(mail.text).toContain('Google Drive hat den Zugriff zurückgezogen');
    expect((await client.post(`/connectors/${created.body.id}/sync`)).body.error.code).toBe(
      'CONNECTOR_PAUSED',
    );
  }, 60_000);
  it('says the folder is gone when it was trashed in Drive, and keeps the files until it is back', async () => {
    await registerApp();
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Papierkorb' })).body.id;
    const folder = folderWith({ 'c.txt': 'Inhalt C' });
    const created = await connect(client, divisionId, { name: 'Drive', folder });
    const first = await synced(client, created.body.id);
    expect(first.lastResult.added).toBe(1);
    google.trash(folder);
    await client.post(`/connectors/${created.body.id}/sync`);
    const second = await synced(client, created.body.id, first.lastSyncAt);
    expect(second).toMatchObject({ lastErrorCode: 'not-found', status: 'active', fileCount: 1 });
    expect(second.lastError).toBe('The folder was not found on the server.');
  }, 60_000);
});

describe('connecting Google Drive', () => {
  it('needs the operator’s client; refuses a forged, foreign or reused consent and a missing folder', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Zustimmung' })).body.id;
    await t.server.ctx.db.execute('delete from google_app');
    const unconfigured = await client.post(`/divisions/${divisionId}/connectors/googledrive/consent`, {
      name: 'X',
    });
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.error.code).toBe('GOOGLE_APP_UNCONFIGURED');
    const noSecret = await operator.request('PUT', '/admin/google-app', { ...google.app, clientSecret: '' });
    expect(noSecret.status).toBe(422);
    const app = await registerApp();
    expect(app).toMatchObject({ configured: true, clientSecretSet: true, clientId: google.clientId });
    expect(app.redirectUri).toMatch(/\/connectors\/googledrive\/callback$/);
    const kept = await operator.request('PUT', '/admin/google-app', { ...google.app, clientSecret: '' });
    expect(kept.status).toBe(200);
    expect(JSON.stringify((await operator.get('/admin/google-app')).body)).not.toContain(google.clientSecret);

    const folder = folderWith({ 'b.txt': 'Inhalt B' });
    const started = await client.post(`/divisions/${divisionId}/connectors/googledrive/consent`, {
      name: 'Drive',
      folder,
    });
    const address = new URL(started.body.authorizationUrl);
    expect(`${address.origin}${address.pathname}`).toBe(google.app.authUrl);
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      code_challenge_method: 'S256',
      scope: 'https://www.googleapis.com/auth/drive.readonly',
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      client_id: google.clientId,
    });

    // Another data manager (another company) cannot complete this one's consent; nor can a forged state.
    const { code, state } = await consent(client, divisionId, { name: 'Drive', folder });
    const other = await signedInDataManager(t, { language: 'en' });
    const foreign = await other.client.post('/connectors/googledrive/complete', { code, state });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('CONNECTOR_CONSENT_INVALID');
    const forged = await client.post('/connectors/googledrive/complete', { code, state: `${state}x` });
    expect(forged.body.error.code).toBe('CONNECTOR_CONSENT_INVALID');
    expect((await client.post('/connectors/googledrive/complete', { code, state })).status).toBe(201);
    // A code is redeemed once.
    const reused = await client.post('/connectors/googledrive/complete', { code, state });
    expect(reused.body.error.code).toBe('CONNECTOR_CONSENT_FAILED');

    const missing = await connect(client, divisionId, { name: 'Fehlt', folder: 'gibt es nicht' });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({
      code: 'CONNECTOR_UNREACHABLE',
      details: { reason: 'not-found' },
    });
    expect(missing.body.error.details.reasonText).toContain('not found');
    const wrongDrive = await connect(client, divisionId, { name: 'Fehlt', driveId: '0Anicht-da', folder });
    expect(wrongDrive.body.error.details.reason).toBe('not-found');
    // A file's id is no folder; a My Drive folder is not in the shared drive.
    const notFolder = await connect(client, divisionId, {
      name: 'Datei',
      folderId: google.idOf(`${folder}/b.txt`),
    });
    expect(notFolder.body.error.details.reason).toBe('not-found');
    const elsewhere = await connect(client, divisionId, {
      name: 'Anderes Laufwerk',
      driveId: google.sharedDriveId,
      folderId: google.idOf(folder),
    });
    expect(elsewhere.body.error.details.reason).toBe('not-found');
    // Declined at Google: the browser comes back with an error and no code.
    google.denyConsent = true;
    const declined = await consent(client, divisionId, { name: 'Nein', folder });
    google.denyConsent = false;
    expect(declined).toMatchObject({ code: null, error: 'access_denied' });
    for (const bad of [
      { driveId: 'a/b' },
      { folderId: "x' or '1" },
      { folder: 'a/../b' },
      { extra: true },
      {},
    ]) {
      const res = await client.post(`/divisions/${divisionId}/connectors/googledrive/consent`, {
        name: 'X',
        ...bad,
        ...(Object.keys(bad).length === 0 ? { name: '' } : {}),
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await client.get(`/divisions/${divisionId}/connectors`)).body.items).toHaveLength(1);
  }, 60_000);

  it('lets one user start only so many consents in a while', async () => {
    await registerApp();
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Viele' })).body.id;
    const start = () => client.post(`/divisions/${divisionId}/connectors/googledrive/consent`, { name: 'X' });
    // Started all at once: the limit is taken atomically, so exactly 20 of 25 parallel starts pass.
    const statuses = (await Promise.all(Array.from({ length: 25 }, start))).map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user is not held up by it.
    const other = await signedInDataManager(t, { language: 'en' });
    const theirs = (await other.client.post('/divisions', { name: 'Eigene' })).body.id;
    expect(
      (await other.client.post(`/divisions/${theirs}/connectors/googledrive/consent`, { name: 'X' })).status,
    ).toBe(200);
  }, 60_000);

  it('is the data manager’s and the operator’s: 401 without a session, 403 for others, 404 across companies', () =>
    expectConsentRoutesGuarded(t, 'googledrive', '/admin/google-app', google.app));
});
