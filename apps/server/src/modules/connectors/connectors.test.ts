import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allReady, answerTexts, filesOf, synced } from '../../../test/support/connector-sync.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { TestWebDav } from '../../../test/support/webdav-server.ts';
import { activityLog, connectors, divisions } from '../../db/schema/index.ts';
import { claimSync, markQueued, queueDue } from './connectors.queries.ts';
import { syncConnectorJob } from './sync-connector.job.ts';
import { resumeStrandedSyncs } from './sync-queue.ts';

const USER = { user: 'anna', pass: 'app-passwort-1' };
/** A login whose app password the test replaces on the server. */
const ROTATING = { user: 'bernd', pass: 'app-passwort-alt' };
let dav: TestWebDav;
let t: TestServer;
beforeAll(async () => {
  dav = await TestWebDav.start([USER, ROTATING]);
  // The operator allows the test's WebDAV server (a NAS on the same network); every other private address stays
  // refused by the outbound policy.
  t = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${dav.port}` } });
});
afterAll(async () => {
  await t?.close();
  await dav?.stop();
});

let folders = 0;
/** A folder of its own on the WebDAV server, with these files. */
function folderWith(files: Record<string, string>): string {
  const name = `Ordner ${++folders}`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dav.root, name, path, '..'), { recursive: true });
    writeFileSync(join(dav.root, name, path), text);
  }
  return name;
}

const connectBody = (folder: string, extra: Record<string, unknown> = {}) => ({
  kind: 'webdav',
  name: 'Nextcloud',
  url: dav.url,
  userName: USER.user,
  password: USER.pass,
  folder,
  ...extra,
});

describe('a WebDAV folder kept in sync with a division', () => {
  it('adds, changes, renames and removes files as the folder does, reading an unchanged file once', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Heizung' })).body.id;
    const folder = folderWith({
      'Preise/Preisliste.txt': 'Die Wartung der Wärmepumpe kostet 189 Euro pauschal.',
      'Handbuch.md': '# Kessel\n\nDer Kessel wird jährlich entlüftet.',
      'Alt.txt': 'Das Ventil Modell Kranich ist abgekündigt.',
      'Notiz.txt': 'Der Schornsteinfeger kommt im Oktober.',
      'Bild.exe': 'MZ',
      '.versteckt.txt': 'nie',
    });
    const created = await client.post(`/divisions/${divisionId}/connectors`, connectBody(folder));
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(USER.pass);
    const first = await synced(client, created.body.id);
    expect(first.lastResult).toMatchObject({ added: 4, changed: 0, renamed: 0, removed: 0 });
    expect(first.lastError).toBeNull();
    expect(first.fileCount).toBe(4);
    const before = await allReady(client, divisionId);
    expect(before.map((f) => f.source?.path).sort()).toEqual([
      'Alt.txt',
      'Handbuch.md',
      'Notiz.txt',
      'Preise/Preisliste.txt',
    ]);
    expect(before.every((f) => f.status === 'ready')).toBe(true);
    expect((await answerTexts(client, 'Was kostet die Wartung der Wärmepumpe?'))[0]).toContain('189 Euro');

    // A synced file is deleted at its source, not by hand.
    const handbook = before.find((f) => f.name === 'Handbuch.md')!;
    const refused = await client.delete(`/files/${handbook.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('FILE_SYNCED');

    // Changed, renamed (moved into another subfolder), deleted; one file untouched.
    writeFileSync(
      join(dav.root, folder, 'Preise/Preisliste.txt'),
      'Die Wartung der Wärmepumpe kostet jetzt 214 Euro.',
    );
    mkdirSync(join(dav.root, folder, 'Archiv'));
    renameSync(join(dav.root, folder, 'Handbuch.md'), join(dav.root, folder, 'Archiv/Kesselhandbuch.md'));
    rmSync(join(dav.root, folder, 'Alt.txt'));
    const sync = await client.post(`/connectors/${created.body.id}/sync`);
    expect(sync.status).toBe(202);
    const second = await synced(client, created.body.id, first.lastSyncAt);
    expect(second.lastResult).toMatchObject({ added: 0, changed: 1, renamed: 1, removed: 1, unchanged: 1 });
    const after = await allReady(client, divisionId);
    expect(after.map((f) => f.source?.path).sort()).toEqual([
      'Archiv/Kesselhandbuch.md',
      'Notiz.txt',
      'Preise/Preisliste.txt',
    ]);
    // The renamed file is the same file (its history stays); so is the changed one, processed again.
    expect(after.find((f) => f.name === 'Kesselhandbuch.md')?.id).toBe(handbook.id);
    expect(after.find((f) => f.name === 'Preisliste.txt')?.id).toBe(
      before.find((f) => f.name === 'Preisliste.txt')?.id,
    );
    const answers = await answerTexts(client, 'Was kostet die Wartung der Wärmepumpe?');
    expect(answers[0]).toContain('214 Euro');
    expect(answers.join(' ')).not.toContain('189 Euro');
    expect((await answerTexts(client, 'Ventil Kranich')).join(' ')).not.toContain('Kranich');
    // Read once each: the untouched file and the renamed one never again, the changed one once more.
    expect(dav.downloads(`${folder}/Notiz.txt`)).toBe(1);
    expect(dav.downloads(`${folder}/Archiv/Kesselhandbuch.md`)).toBe(0);
    expect(dav.downloads(`${folder}/Preise/Preisliste.txt`)).toBe(2);

    // A third sync without changes reads nothing.
    await client.post(`/connectors/${created.body.id}/sync`);
    const third = await synced(client, created.body.id, second.lastSyncAt);
    expect(third.lastResult).toMatchObject({ added: 0, changed: 0, renamed: 0, removed: 0, unchanged: 3 });
    expect(dav.downloads(`${folder}/Preise/Preisliste.txt`)).toBe(2);
  }, 120_000);

  it('takes only the chosen file types', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Filter' })).body.id;
    const folder = folderWith({ 'a.txt': 'Text eins', 'b.md': '# Zwei', 'c.csv': 'x,y\n1,2' });
    const created = await client.post(
      `/divisions/${divisionId}/connectors`,
      connectBody(folder, { fileTypes: ['.MD', 'csv'] }),
    );
    expect(created.body.fileTypes).toEqual(['md', 'csv']);
    const done = await synced(client, created.body.id);
    expect(done.lastResult.added).toBe(2);
    expect((await filesOf(client, divisionId)).map((f) => f.name).sort()).toEqual(['b.md', 'c.csv']);
  });

  it('never runs two syncs of one connector: parallel requests queue one, parallel jobs claim one', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Parallel' })).body.id;
    const created = await client.post(
      `/divisions/${divisionId}/connectors`,
      connectBody(folderWith({ 'x.txt': 'Inhalt' })),
    );
    const id = created.body.id as string;
    const first = await synced(client, id);
    const db = t.server.ctx.db;
    const state = (values: Partial<typeof connectors.$inferInsert>) =>
      db.update(connectors).set(values).where(eq(connectors.id, id));
    // The states below have no job behind them, which the server's every-minute schedule takes up as a stranded sync
    // (queued again, run, idle): when it ran mid-test, a second request found the connector idle again. A sync job due
    // in an hour keeps the schedule off this connector until the statements are checked.
    const held = await t.server.ctx.jobs.send(syncConnectorJob, { connectorId: id }, { startAfter: 3600 });

    // While a sync runs, every request is told so.
    await state({ syncState: 'running', syncJobId: 'held-by-a-test' });
    const refused = await Promise.all(Array.from({ length: 8 }, () => client.post(`/connectors/${id}/sync`)));
    expect(refused.map((r) => r.body.error?.code)).toEqual(Array(8).fill('CONNECTOR_SYNC_RUNNING'));
    // Of parallel requests on an idle connector exactly one queues it (the statement the route relies on) ...
    await state({ syncState: 'idle', syncJobId: null });
    const queued = await Promise.all(Array.from({ length: 8 }, () => markQueued(db, id)));
    expect(queued.filter(Boolean)).toHaveLength(1);
    // ... and of parallel jobs exactly one takes the queued sync.
    const claims = await Promise.all(['job-a', 'job-b', 'job-c'].map((job) => claimSync(db, id, job)));
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    // The one that took it goes on after a crash (its retry has the same job id); the others still find nothing.
    const holder = claims.find((c) => c !== null)!.syncJobId!;
    expect(await claimSync(db, id, holder)).not.toBeNull();
    expect(await claimSync(db, id, holder === 'job-a' ? 'job-b' : 'job-a')).toBeNull();

    // Through the API: a sync requested on an idle connector runs and ends.
    await t.server.ctx.pool.query('delete from pgboss.job where id = $1', [held]);
    await state({ syncState: 'idle', syncJobId: null });
    expect((await client.post(`/connectors/${id}/sync`)).status).toBe(202);
    const next = await synced(client, id, first.lastSyncAt);
    expect(next.lastResult.unchanged).toBe(1);
  });

  it('pauses after failing syncs in a row and mails whoever connected it; resuming syncs again', async () => {
    const { client, email } = await signedInDataManager(t, { language: 'de' });
    const divisionId = (await client.post('/divisions', { name: 'Pause' })).body.id;
    const folder = folderWith({ 'y.txt': 'Inhalt' });
    const created = await client.post(`/divisions/${divisionId}/connectors`, connectBody(folder));
    let last = await synced(client, created.body.id);
    rmSync(join(dav.root, folder), { recursive: true });
    for (let i = 1; i <= 3; i++) {
      const res = await client.post(`/connectors/${created.body.id}/sync`);
      expect(res.status).toBe(202);
      last = await synced(client, created.body.id, last.lastSyncAt);
      expect(last.lastErrorCode).toBe('not-found');
      expect(last.failureCount).toBe(i);
    }
    expect(last.status).toBe('paused');
    expect(last.lastError).toBe('Der Ordner wurde auf dem Server nicht gefunden.');
    const refused = await client.post(`/connectors/${created.body.id}/sync`);
    expect(refused.body.error.code).toBe('CONNECTOR_PAUSED');
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('Nextcloud'));
    expect(mail.text).toContain('Der Ordner wurde auf dem Server nicht gefunden.');

    folderWith({});
    mkdirSync(join(dav.root, folder), { recursive: true });
    const resumed = await client.post(`/connectors/${created.body.id}/resume`);
    expect(resumed.status).toBe(200);
    const healed = await synced(client, created.body.id, last.lastSyncAt);
    expect(healed).toMatchObject({ status: 'active', failureCount: 0, lastError: null });
    expect(healed.lastResult.removed).toBe(1);
  }, 90_000);
});

describe('changing a connector', () => {
  it('takes a new name, schedule, file types and app password without connecting again', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Ändern' })).body.id;
    const folder = folderWith({ 'a.txt': 'Text eins', 'b.md': '# Zwei' });
    const created = await client.post(
      `/divisions/${divisionId}/connectors`,
      connectBody(folder, { userName: ROTATING.user, password: ROTATING.pass }),
    );
    expect((await synced(client, created.body.id)).lastResult.added).toBe(2);
    const id = created.body.id as string;
    const markdown = (await filesOf(client, divisionId)).find((f) => f.name === 'b.md')!;

    // Name and schedule: nothing to read again.
    const renamed = await client.patch(`/connectors/${id}`, { name: 'NAS Büro', intervalMinutes: 1440 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'NAS Büro', intervalMinutes: 1440, syncState: 'idle' });

    // The app password is replaced on the server: a wrong new one is refused and not stored, the right one syncs.
    const rotated = { ...ROTATING, pass: 'app-passwort-neu' };
    dav.setPassword(rotated);
    const sealed = async () =>
      (await t.server.ctx.db.select().from(connectors).where(eq(connectors.id, id)))[0]!.secretSealed;
    const before = await sealed();
    const wrong = await client.patch(`/connectors/${id}`, { password: 'app-passwort-falsch' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toMatchObject({ code: 'CONNECTOR_UNREACHABLE', details: { reason: 'auth' } });
    expect(await sealed()).toBe(before);
    const fixed = await client.patch(`/connectors/${id}`, { password: rotated.pass });
    expect(fixed.status).toBe(200);
    expect(JSON.stringify(fixed.body)).not.toContain(rotated.pass);
    const after = await synced(client, id);
    expect(after.lastError).toBeNull();
    expect(after.lastResult).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 2 });

    // Fewer file types: the next sync removes what no longer fits, and keeps the rest as it was.
    await client.patch(`/connectors/${id}`, { fileTypes: ['.MD'] });
    expect((await synced(client, id)).lastResult).toMatchObject({ removed: 1, unchanged: 1 });
    const left = await filesOf(client, divisionId);
    expect(left.map((f) => [f.id, f.name])).toEqual([[markdown.id, 'b.md']]);

    // Bad input changes nothing.
    for (const body of [{ intervalMinutes: 5 }, { name: '' }, { url: 'https://elsewhere.example/' }]) {
      const res = await client.patch(`/connectors/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await client.get(`/connectors/${id}`)).body).toMatchObject({
      name: 'NAS Büro',
      intervalMinutes: 1440,
      fileTypes: ['md'],
    });

    // A connector connected by consent has no login to change.
    await t.server.ctx.db.update(connectors).set({ kind: 'microsoft365' }).where(eq(connectors.id, id));
    const login = await client.patch(`/connectors/${id}`, { password: 'x-1' });
    expect(login.status).toBe(422);
    expect(login.body.error.details.fields[0]).toMatchObject({
      field: 'password',
      code: 'connectors.validation.noLogin',
    });
  }, 120_000);
});

describe('the schedule, the plan and the activity log', () => {
  it('syncs a connector when its interval has passed, and takes up a sync whose job is gone', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Plan' })).body.id;
    const folder = folderWith({ 'a.txt': 'Eins' });
    const id = (await client.post(`/divisions/${divisionId}/connectors`, connectBody(folder))).body
      .id as string;
    const first = await synced(client, id);
    const ctx = t.server.ctx;
    const row = () => ctx.db.select().from(connectors).where(eq(connectors.id, id));

    // Synced a minute ago with an hourly interval: not due. An hour and a minute ago: due, and synced.
    await ctx.db
      .update(connectors)
      .set({ lastSyncAt: new Date(Date.now() - 60_000) })
      .where(eq(connectors.id, id));
    expect(await queueDue(ctx.db)).not.toContain(id);
    writeFileSync(join(dav.root, folder, 'b.txt'), 'Zwei');
    await ctx.db
      .update(connectors)
      .set({ lastSyncAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(connectors.id, id));
    const due = await queueDue(ctx.db);
    expect(due).toContain(id);
    for (const connectorId of due) await ctx.jobs.send(syncConnectorJob, { connectorId });
    const second = await synced(client, id, first.lastSyncAt);
    expect(second.lastResult).toMatchObject({ added: 1, unchanged: 1 });

    // A sync left running by a job that no longer exists is queued again, counted as interrupted, and ends.
    writeFileSync(join(dav.root, folder, 'c.txt'), 'Drei');
    await ctx.db
      .update(connectors)
      .set({ syncState: 'running', syncJobId: '00000000-0000-4000-8000-000000000000' })
      .where(eq(connectors.id, id));
    // (The job of the sync before may still be finishing in pg-boss: until it is done, it is not a stranded sync.)
    await expect.poll(() => resumeStrandedSyncs(ctx), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const third = await synced(client, id, second.lastSyncAt);
    expect(third.lastResult).toMatchObject({ added: 1, unchanged: 2 });
    expect((await row())[0]).toMatchObject({ syncState: 'idle', syncJobId: null });

    // Each sync is in the company's activity log (written after the sync ends), with the paths it brought in.
    const loggedPaths = async () =>
      (
        await ctx.db
          .select({ changes: activityLog.changes })
          .from(activityLog)
          .where(
            and(eq(activityLog.endpoint, `/connectors/${id}`), eq(activityLog.action, 'connectorSynced')),
          )
      )
        .flatMap((l) => (l.changes as { after: { added: string[] } }).after.added)
        .sort();
    await expect.poll(loggedPaths, { timeout: 10_000 }).toEqual(['a.txt', 'b.txt', 'c.txt']);
  }, 120_000);

  it("stops at the plan's storage limit with a clear message, keeping what fit", async () => {
    // The company is on the trial, whose storage the operator sets to 1 KB: one of the two files fits.
    const admin = await signedInAs(t, 'Administrator');
    const trial = (
      (await admin.client.get('/admin/plans')).body.items as Array<Record<string, unknown>>
    ).find((p) => p.key === 'trial')!;
    const setStorage = (storageBytes: unknown) =>
      admin.client.put('/admin/plans/trial', {
        priceCents: trial.priceCents,
        limits: { ...(trial.limits as object), storageBytes },
      });
    expect((await setStorage(1024)).status).toBe(200);
    try {
      const { client } = await signedInDataManager(t, { language: 'de' });
      const divisionId = (await client.post('/divisions', { name: 'Voll' })).body.id as string;
      const db = t.server.ctx.db;
      const [division] = await db
        .select({ companyId: divisions.companyId })
        .from(divisions)
        .where(eq(divisions.id, divisionId));
      const companyId = division!.companyId;
      const assigned = await admin.client.put(`/admin/payments/${companyId}/plan`, {
        plan: 'trial',
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(assigned.status).toBe(200);
      const folder = folderWith({ 'a.txt': 'A'.repeat(700), 'b.txt': 'B'.repeat(700) });
      const id = (await client.post(`/divisions/${divisionId}/connectors`, connectBody(folder))).body
        .id as string;
      const stopped = await synced(client, id);
      expect(stopped.lastErrorCode).toBe('quota');
      expect(stopped.lastError).toBe(
        'Der Speicher Ihres Tarifs ist voll: Die Synchronisierung wurde angehalten. Löschen Sie Dateien oder wählen Sie einen größeren Tarif.',
      );
      expect(await filesOf(client, divisionId)).toHaveLength(1);
    } finally {
      await setStorage((trial.limits as { storageBytes: unknown }).storageBytes);
    }
  }, 90_000);
});

describe('connecting a source', () => {
  it('refuses a wrong password, a refused address and bad input, storing nothing', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Fehler' })).body.id;
    const folder = folderWith({ 'z.txt': 'Inhalt' });
    const wrong = await client.post(
      `/divisions/${divisionId}/connectors`,
      connectBody(folder, { password: 'falsch' }),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toMatchObject({ code: 'CONNECTOR_UNREACHABLE', details: { reason: 'auth' } });
    // Another port on the same host: private, and not allowed by the operator.
    const blocked = await client.post(
      `/divisions/${divisionId}/connectors`,
      connectBody(folder, { url: `http://localhost:${dav.port + 1}/` }),
    );
    expect(blocked.body.error).toMatchObject({
      code: 'CONNECTOR_UNREACHABLE',
      details: { reason: 'blocked' },
    });
    const missing = await client.post(`/divisions/${divisionId}/connectors`, connectBody('gibt es nicht'));
    expect(missing.body.error.details.reason).toBe('not-found');
    for (const bad of [
      { url: 'ftp://nas.example/' },
      { url: 'https://anna:geheim@nas.example/' },
      { folder: 'a/../b' },
      { fileTypes: ['p df'] },
      { password: '' },
      { kind: 'dropbox' },
      { intervalMinutes: 1 },
      { extra: true },
    ]) {
      const res = await client.post(`/divisions/${divisionId}/connectors`, connectBody(folder, bad));
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await client.get(`/divisions/${divisionId}/connectors`)).body.items).toEqual([]);
  });

  it('is the data manager’s: an employee is refused, another company sees nothing', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = (await client.post('/divisions', { name: 'Eigen' })).body.id;
    const created = await client.post(
      `/divisions/${divisionId}/connectors`,
      connectBody(folderWith({ 'e.txt': 'Eigen' })),
    );
    await synced(client, created.body.id);
    const anonymous = t.client();
    expect((await anonymous.get(`/connectors/${created.body.id}`)).status).toBe(401);
    expect((await anonymous.post(`/divisions/${divisionId}/connectors`, connectBody('x'))).status).toBe(401);
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.post(`/divisions/${divisionId}/connectors`, connectBody('x'))).status).toBe(
      403,
    );
    expect((await employee.client.post(`/connectors/${created.body.id}/sync`)).status).toBe(403);
    expect((await employee.client.patch(`/connectors/${created.body.id}`, { name: 'x' })).status).toBe(403);
    expect((await anonymous.patch(`/connectors/${created.body.id}`, { name: 'x' })).status).toBe(401);
    const other = await signedInDataManager(t, { language: 'en' });
    for (const res of [
      await other.client.get(`/connectors/${created.body.id}`),
      await other.client.post(`/connectors/${created.body.id}/sync`),
      await other.client.post(`/connectors/${created.body.id}/pause`),
      await other.client.patch(`/connectors/${created.body.id}`, { name: 'Fremd' }),
      await other.client.delete(`/connectors/${created.body.id}`),
      await other.client.get(`/divisions/${divisionId}/connectors`),
    ]) {
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Nextcloud');
    }
    // Removing it leaves its files as files of their own, deletable by hand.
    expect((await client.delete(`/connectors/${created.body.id}`)).status).toBe(204);
    const [file] = await filesOf(client, divisionId);
    expect(file!.source).toBeNull();
    expect((await client.delete(`/files/${file!.id}`)).status).toBe(204);
  });
});
