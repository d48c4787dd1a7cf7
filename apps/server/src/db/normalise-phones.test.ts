import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChat, insertDivision, insertVisitor } from '../../test/support/chat-fixtures.ts';
import { createUser } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import { normaliseStoredPhones } from './normalise-phones.ts';
import { chatVisitors, companyDetails, users } from './schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const db = () => t.server.ctx.db;

describe('phone numbers saved before E.164', () => {
  it('are normalised once, keeping a confirmation of the same number and what reads as no number', async () => {
    const { user: typed, companyId } = await createUser(t, 'DataManager');
    await db()
      .insert(companyDetails)
      .values({ companyId: companyId!, country: 'IT', standardTaxRate: '22.00' });
    const { user: confirmed } = await createUser(t, 'Employee', { companyId });
    const { user: national } = await createUser(t, 'Employee', { companyId });
    const { user: other } = await createUser(t, 'Employee', { companyId });
    const { user: nonsense } = await createUser(t, 'Employee', { companyId });
    const set = (id: string, phone: string, verified: string | null = null) =>
      db().update(users).set({ phone, phoneVerifiedDigits: verified }).where(eq(users.id, id));
    // The sign-up form's "+49" and "0151 23456789", as stored until now: its digits never matched WhatsApp's.
    await set(typed.id, '+49 01512 3456789');
    await set(confirmed.id, '+49 1512 3456788', '4915123456788');
    // A national number is read in the company's country (Italy keeps its leading zero).
    await set(national.id, '06 1234 5678');
    // Confirmed for another number than the one saved now: stays unconfirmed.
    await set(other.id, '+49 (151) 23456787', '4915199999999');
    await set(nonsense.id, 'ruf mich an');
    const division = await insertDivision(t, companyId!);
    const chat = await insertChat(t, {
      companyId: companyId!,
      ownerId: typed.id,
      divisionIds: [division.id],
    });
    const visitor = await insertVisitor(t, {
      companyId: companyId!,
      chatId: chat.id,
      phone: '+39 333 123 4567',
    });

    expect(await normaliseStoredPhones(db())).toMatchObject({ visitors: 1 });
    const phones = await db()
      .select({ id: users.id, phone: users.phone, verified: users.phoneVerifiedDigits })
      .from(users)
      .where(sql`${users.companyId} = ${companyId}`);
    const of = (id: string) => phones.find((p) => p.id === id);
    expect(of(typed.id)).toMatchObject({ phone: '+4915123456789', verified: null });
    expect(of(confirmed.id)).toMatchObject({ phone: '+4915123456788', verified: '4915123456788' });
    expect(of(national.id)).toMatchObject({ phone: '+390612345678', verified: null });
    expect(of(other.id)).toMatchObject({ phone: '+4915123456787', verified: '4915199999999' });
    expect(of(nonsense.id)).toMatchObject({ phone: 'ruf mich an' });
    const [stored] = await db()
      .select({ phone: chatVisitors.phone })
      .from(chatVisitors)
      .where(eq(chatVisitors.id, visitor.id));
    expect(stored!.phone).toBe('+393331234567');

    // A second start changes nothing.
    expect(await normaliseStoredPhones(db())).toEqual({ users: 0, visitors: 0 });
  });
});
