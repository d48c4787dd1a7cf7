import { randomInt } from 'node:crypto';
import {
  type Language,
  type PhoneVerification,
  type PhoneVerificationCode,
  phoneDigits,
} from '@werkwissen/shared';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import { safeEqual, sha256 } from '../../core/token-crypto.ts';
import { phoneVerifications, users } from '../../db/schema/index.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { attemptPhoneCodes, confirmPhoneDigits } from './whatsapp.queries.ts';
import { whatsappNumberOf } from './whatsapp-connection.service.ts';

/** How long a code may take to arrive from the phone, and how many codes a number may send for one. */
const CODE_MINUTES = 30;
const CODE_ATTEMPTS = 5;
/** New codes one user may ask for per hour. */
const CODES_PER_HOUR = 5;

/** What a confirmation code is kept as: bound to the number it confirms. */
const codeHash = (digits: string, code: string) => sha256(`phone-verification:${digits}:${code}`);

/** The message of a code sent from the phone: six digits and nothing else (spaces and dashes aside). */
export function codeIn(text: string): string | null {
  const compact = text.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(compact) ? compact : null;
}

/** The signed-in user's phone number and whether it answers on WhatsApp as them. */
export async function phoneVerificationStatus(ctx: AppContext, actor: Actor): Promise<PhoneVerification> {
  const [user] = await ctx.db
    .select({ phone: users.phone, verified: users.phoneVerifiedDigits })
    .from(users)
    .where(eq(users.id, actor.userId));
  const digits = phoneDigits(user?.phone);
  const whatsapp = actor.companyId ? await whatsappNumberOf(ctx, actor.companyId) : null;
  const [pending] = digits
    ? await ctx.db
        .select({ expiresAt: phoneVerifications.expiresAt })
        .from(phoneVerifications)
        .where(
          and(
            eq(phoneVerifications.userId, actor.userId),
            eq(phoneVerifications.phoneDigits, digits),
            gt(phoneVerifications.expiresAt, new Date()),
            lt(phoneVerifications.attempts, CODE_ATTEMPTS),
          ),
        )
    : [];
  const state = !digits
    ? 'none'
    : user?.verified === digits
      ? 'verified'
      : pending
        ? 'pending'
        : 'unverified';
  return {
    phone: user?.phone ?? null,
    state,
    whatsappConnected: Boolean(whatsapp),
    whatsappNumber: whatsapp?.displayPhoneNumber ?? null,
    expiresAt: state === 'pending' ? pending!.expiresAt.toISOString() : null,
  };
}

/**
 * A new code for the signed-in user's saved phone number (the earlier one stops working), shown once: sent from that
 * number by WhatsApp to the company's number, it proves that whoever holds the account also holds the number. Not
 * while an operator views the product as the user; at most CODES_PER_HOUR per user.
 */
export async function startPhoneVerification(ctx: AppContext, actor: Actor): Promise<PhoneVerificationCode> {
  refuseWhileImpersonating(actor);
  const whatsapp = actor.companyId ? await whatsappNumberOf(ctx, actor.companyId) : null;
  if (!whatsapp) throw new AppError('WHATSAPP_NOT_CONNECTED');
  const [user] = await ctx.db
    .select({ phone: users.phone, verified: users.phoneVerifiedDigits })
    .from(users)
    .where(eq(users.id, actor.userId));
  const digits = phoneDigits(user?.phone);
  if (!digits) throw new AppError('PHONE_MISSING', { field: 'phone' });
  if (user?.verified === digits) throw new AppError('PHONE_ALREADY_VERIFIED');
  await takeSlotsOrRefuse(ctx, [
    { bucket: 'phone-verification:user', key: actor.userId, max: CODES_PER_HOUR, windowSeconds: 3600 },
  ]);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + CODE_MINUTES * 60_000);
  const row = { phoneDigits: digits, codeHash: codeHash(digits, code), attempts: 0, expiresAt };
  await ctx.db
    .insert(phoneVerifications)
    .values({ userId: actor.userId, ...row })
    .onConflictDoUpdate({ target: phoneVerifications.userId, set: { ...row, createdAt: new Date() } });
  const number = phoneDigits(whatsapp.displayPhoneNumber);
  return {
    code,
    expiresAt: expiresAt.toISOString(),
    whatsappNumber: whatsapp.displayPhoneNumber,
    link: number ? `https://wa.me/${number}?text=${code}` : null,
  };
}

/**
 * A code sent by WhatsApp from a number of the company's users that waits for confirmation: claims one of the code's
 * attempts (in one statement, so parallel messages never get more) and, when it is right, confirms the number for
 * its user, as long as the account still holds that number. Null when the message is no code or no confirmation
 * waits for the number: then it is an ordinary message.
 */
export async function confirmFromWhatsApp(
  ctx: AppContext,
  companyId: string,
  waId: string,
  text: string,
): Promise<{ confirmed: boolean; language: Language } | null> {
  const code = codeIn(text);
  if (!code) return null;
  const rows = await attemptPhoneCodes(ctx.db, companyId, waId, CODE_ATTEMPTS);
  if (rows.length === 0) return null;
  const match = rows.find((row) => safeEqual(row.code_hash, codeHash(waId, code)));
  if (!match) return { confirmed: false, language: rows[0]!.language };
  await ctx.db.transaction(async (tx) => {
    await confirmPhoneDigits(tx, match.user_id, waId);
    await tx.delete(phoneVerifications).where(eq(phoneVerifications.userId, match.user_id));
  });
  return { confirmed: true, language: match.language };
}
