import { expect } from 'vitest';
import type { ApiClient } from './api-client.ts';
import { type DocPart, makeDocx, waitForFile } from './documents.ts';
import { signedInDataManager, type TestServer } from './test-server.ts';

/** A new company whose data manager has one division with one ready .docx holding `text` (or the given parts). */
export async function companyWithFile(
  t: TestServer,
  text: string | DocPart[],
  divisionName = 'Heizung',
  overrides: Record<string, unknown> = { language: 'en' },
) {
  const dm = await signedInDataManager(t, overrides);
  const divisionId = (await dm.client.post('/divisions', { name: divisionName })).body.id as string;
  const parts = typeof text === 'string' ? [{ heading: divisionName }, { text }] : text;
  const up = await dm.client.upload(`/divisions/${divisionId}/files`, [
    { name: `${divisionName}.docx`, content: await makeDocx(parts) },
  ]);
  const file = await waitForFile(dm.client, up.body.results[0].file.id);
  return { ...dm, divisionId, file };
}

/** Signs in an employee invited by the data manager, through the real invitation mail. */
export async function employeeOf(
  t: TestServer,
  dm: { client: ApiClient; email: string },
  divisionIds: string[],
): Promise<ApiClient> {
  // Invitations wait until the data manager's own address is confirmed.
  const verify = await t.smtp!.waitFor(
    (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
  );
  await dm.client.post('/auth/verify-email', { token: new URL(verify.link!).searchParams.get('token') });
  const email = `mitarbeiter-${Date.now()}-${Math.random().toString(36).slice(2)}@firma.example`;
  await dm.client.post('/employees', {
    email,
    firstName: 'Kai',
    lastName: 'Berg',
    language: 'en',
    divisionIds,
  });
  const mail = await t.smtp!.waitFor(
    (m) => m.to.includes(email) && m.link?.includes('/setPassword?') === true,
  );
  const token = new URL(mail.link!).searchParams.get('token');
  const client = t.client();
  const password = 'sicher-Pass-1';
  expect(
    (await client.post('/auth/set-password', { token, password, confirmPassword: password })).status,
  ).toBe(200);
  expect((await client.post('/auth/login', { email, password, area: 'employee' })).status).toBe(200);
  return client;
}
