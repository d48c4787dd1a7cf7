import { expect } from 'vitest';
import type { ApiClient } from './api-client.ts';
import { waitForFile } from './documents.ts';

/** Waits until the connector's sync has ended (after `since`, when given), and returns the connector. */
export async function synced(client: ApiClient, connectorId: string, since?: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await client.get(`/connectors/${connectorId}`);
    expect(res.status).toBe(200);
    const c = res.body;
    if (c.syncState === 'idle' && c.lastSyncAt && (!since || c.lastSyncAt > since)) return c;
    if (Date.now() > deadline) throw new Error(`sync still ${c.syncState}: ${JSON.stringify(c)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The division's files, with where each came from. */
export async function filesOf(client: ApiClient, divisionId: string) {
  const res = await client.get(`/divisions/${divisionId}/files?pageSize=100`);
  return res.body.items as Array<{
    id: string;
    name: string;
    status: string;
    source: { path: string } | null;
  }>;
}

/** The division's files once each has finished processing. */
export async function allReady(client: ApiClient, divisionId: string) {
  for (const f of await filesOf(client, divisionId)) await waitForFile(client, f.id);
  return filesOf(client, divisionId);
}

/** What the search finds for a question, as "file: text". */
export const answerTexts = async (client: ApiClient, q: string) =>
  (
    (await client.get(`/search?q=${encodeURIComponent(q)}`)).body.items as Array<{
      text: string;
      fileName: string;
    }>
  ).map((h) => `${h.fileName}: ${h.text}`);
