import type { Language } from '@werkwissen/shared';
import { COUNTRY_OF_LANGUAGE, toE164 } from '@werkwissen/shared/phone';
import { sql } from 'drizzle-orm';
import type { Db } from './database.ts';

/** What E.164 looks like; anything else was saved before numbers were normalised. */
const E164 = '^\\+[1-9][0-9]{6,14}$';

/**
 * Brings people's phone numbers saved before they were stored in E.164 ("+49 01512 3456789", "0151 23456789") into
 * E.164, read in the company's country (else the user's, else their language's). A number whose confirmation from
 * WhatsApp (`phone_verified_digits`) means the same number keeps it, in the new digits; a number that reads as no
 * valid number stays as typed (nothing is lost; its owner sees it and corrects it). Runs after the migrations at every
 * start and touches only rows not yet in E.164, so a second run changes nothing.
 */
export async function normaliseStoredPhones(db: Db): Promise<{ users: number; visitors: number }> {
  const { rows: people } = await db.execute<{
    id: string;
    phone: string;
    verified: string | null;
    country: string | null;
    language: Language;
  }>(sql`select u.id, u.phone, u.phone_verified_digits as verified, u.language,
      coalesce(d.country, u.country) as country
    from users u left join company_details d on d.company_id = u.company_id
    where u.phone is not null and u.phone !~ ${E164}`);
  let changedUsers = 0;
  for (const person of people) {
    const phone = toE164(person.phone, person.country ?? COUNTRY_OF_LANGUAGE[person.language]);
    if (!phone) continue;
    const keeps = person.verified !== null && toE164(`+${person.verified}`) === phone;
    const verified = keeps ? phone.slice(1) : person.verified;
    const { rowCount } =
      await db.execute(sql`update users set phone = ${phone}, phone_verified_digits = ${verified}
      where id = ${person.id} and phone = ${person.phone}`);
    changedUsers += rowCount ?? 0;
  }
  const { rows: visitors } = await db.execute<{ id: string; phone: string; country: string | null }>(sql`
    select v.id, v.phone, d.country from chat_visitors v left join company_details d on d.company_id = v.company_id
    where v.phone is not null and v.phone !~ ${E164}`);
  let changedVisitors = 0;
  for (const visitor of visitors) {
    const phone = toE164(visitor.phone, visitor.country);
    if (!phone) continue;
    const { rowCount } = await db.execute(
      sql`update chat_visitors set phone = ${phone} where id = ${visitor.id} and phone = ${visitor.phone}`,
    );
    changedVisitors += rowCount ?? 0;
  }
  return { users: changedUsers, visitors: changedVisitors };
}
