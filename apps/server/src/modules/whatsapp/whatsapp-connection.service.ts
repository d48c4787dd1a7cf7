import { createHmac } from 'node:crypto';
import type {
  WhatsAppConnection,
  WhatsAppTest,
  whatsappConnectionBodySchema,
  whatsappTestBodySchema,
} from '@werkwissen/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { randomToken } from '../../core/token-crypto.ts';
import { whatsappConnections } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { maskKey, SecretBox } from '../ai-providers/secret-box.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { GraphClient, GraphError } from './graph-client.ts';
import { isPublicChatOf } from './whatsapp.queries.ts';

type Body = z.output<typeof whatsappConnectionBodySchema>;
type TestBody = z.output<typeof whatsappTestBodySchema>;
type Row = typeof whatsappConnections.$inferSelect;

/** A connected number with its secrets opened, as the webhook and the jobs use it. */
export interface OpenConnection {
  companyId: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  unknownNumbers: Row['unknownNumbers'];
  publicChatId: string | null;
}

const box = (ctx: AppContext) => new SecretBox(ctx.config.secrets.encryptionKey);

/**
 * The key that names a company in its webhook's address: derived from the installation's key and the company, so it
 * is the same before and after the first save and tells nothing about the company.
 */
export function companyKeyOf(ctx: AppContext, companyId: string): string {
  return createHmac('sha256', ctx.config.secrets.encryptionKey)
    .update(`werkwissen/whatsapp-company-key:${companyId}`)
    .digest('base64url')
    .slice(0, 32);
}

async function webhookUrl(ctx: AppContext, companyId: string): Promise<string> {
  const { general } = await ctx.settings.current();
  return `${general.publicUrl}/api/v1/webhooks/whatsapp/${companyKeyOf(ctx, companyId)}`;
}

async function present(
  ctx: AppContext,
  companyId: string,
  row: Row | undefined,
): Promise<WhatsAppConnection> {
  return {
    connected: Boolean(row),
    phoneNumberId: row?.phoneNumberId ?? '',
    businessAccountId: row?.businessAccountId ?? '',
    accessTokenHint: row?.accessTokenHint ?? '',
    appSecretHint: row?.appSecretHint ?? '',
    verifyToken: row?.verifyToken ?? randomToken(24),
    webhookUrl: await webhookUrl(ctx, companyId),
    unknownNumbers: row?.unknownNumbers ?? 'refuse',
    publicChatId: row?.publicChatId ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

async function storedRow(ctx: AppContext, companyId: string): Promise<Row | undefined> {
  const [row] = await ctx.db
    .select()
    .from(whatsappConnections)
    .where(eq(whatsappConnections.companyId, companyId));
  return row;
}

export async function getWhatsAppConnection(ctx: AppContext, actor: Actor): Promise<WhatsAppConnection> {
  const companyId = ownCompany(actor, 'update');
  return present(ctx, companyId, await storedRow(ctx, companyId));
}

/** The public chat unknown numbers are answered from must be one of the company's public chats. */
async function assertPublicChat(ctx: AppContext, companyId: string, chatId: string | null): Promise<void> {
  if (!chatId) throw new AppError('WHATSAPP_PUBLIC_CHAT_INVALID');
  if (!(await isPublicChatOf(ctx.db, companyId, chatId))) throw new AppError('WHATSAPP_PUBLIC_CHAT_INVALID');
}

/** Calls to Meta with a token a company typed in (the test, a save that checks it): a company's per hour. */
const GRAPH_CHECKS_PER_HOUR = 30;

/** Asks the Graph API for the number with the token, within the company's hourly allowance of such checks. */
async function numberAsMetaSees(ctx: AppContext, companyId: string, token: string, phoneNumberId: string) {
  await takeSlotsOrRefuse(ctx, [
    {
      bucket: 'whatsapp-graph-check:company',
      key: companyId,
      max: GRAPH_CHECKS_PER_HOUR,
      windowSeconds: 3600,
    },
  ]);
  return new GraphClient(ctx, token).phoneNumber(phoneNumberId);
}

/**
 * A number is saved only when Meta confirms that the token reaches it: otherwise anyone could claim another business's
 * phone-number id with a made-up token, and its owner could not connect it any more (WHATSAPP_NUMBER_IN_USE).
 * Answers the number as Meta shows it.
 */
async function confirmedByMeta(ctx: AppContext, companyId: string, token: string, phoneNumberId: string) {
  try {
    const number = await numberAsMetaSees(ctx, companyId, token, phoneNumberId);
    return number.display_phone_number ?? null;
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    if (error.status === 0 || error.status >= 500) throw new AppError('WHATSAPP_GRAPH_UNREACHABLE');
    throw new AppError('WHATSAPP_NUMBER_REFUSED', { code: error.code || error.status });
  }
}

/**
 * Connects the company's one number, or changes it; secrets left out keep their saved values. A new number or token
 * is checked against the Graph API first (`confirmedByMeta`).
 */
export async function saveWhatsAppConnection(
  ctx: AppContext,
  actor: Actor,
  body: Body,
): Promise<WhatsAppConnection> {
  const companyId = ownCompany(actor, 'update');
  const existing = await storedRow(ctx, companyId);
  if (!existing && (!body.accessToken || !body.appSecret)) throw new AppError('WHATSAPP_SECRETS_REQUIRED');
  if (body.unknownNumbers === 'publicChat') await assertPublicChat(ctx, companyId, body.publicChatId);
  const sealed = box(ctx);
  const checked =
    !existing || body.accessToken || body.phoneNumberId !== existing.phoneNumberId
      ? {
          displayPhoneNumber: await confirmedByMeta(
            ctx,
            companyId,
            body.accessToken ?? sealed.open(existing!.accessTokenEncrypted),
            body.phoneNumberId,
          ),
        }
      : {};
  const [taken] = await ctx.db
    .select({ companyId: whatsappConnections.companyId })
    .from(whatsappConnections)
    .where(
      and(
        eq(whatsappConnections.phoneNumberId, body.phoneNumberId),
        ne(whatsappConnections.companyId, companyId),
      ),
    );
  if (taken) throw new AppError('WHATSAPP_NUMBER_IN_USE');
  const secrets = {
    ...(body.accessToken
      ? { accessTokenEncrypted: sealed.seal(body.accessToken), accessTokenHint: maskKey(body.accessToken) }
      : {}),
    ...(body.appSecret
      ? { appSecretEncrypted: sealed.seal(body.appSecret), appSecretHint: maskKey(body.appSecret) }
      : {}),
  };
  const values = {
    phoneNumberId: body.phoneNumberId,
    businessAccountId: body.businessAccountId,
    verifyToken: body.verifyToken,
    unknownNumbers: body.unknownNumbers,
    publicChatId: body.unknownNumbers === 'publicChat' ? body.publicChatId : null,
    ...checked,
    updatedAt: new Date(),
  };
  try {
    if (existing) {
      await ctx.db
        .update(whatsappConnections)
        .set({ ...values, ...secrets })
        .where(eq(whatsappConnections.companyId, companyId));
    } else {
      await ctx.db.insert(whatsappConnections).values({
        companyId,
        companyKey: companyKeyOf(ctx, companyId),
        ...values,
        accessTokenEncrypted: secrets.accessTokenEncrypted!,
        accessTokenHint: secrets.accessTokenHint!,
        appSecretEncrypted: secrets.appSecretEncrypted!,
        appSecretHint: secrets.appSecretHint!,
      });
    }
  } catch (error) {
    // Another company connected the same number at the same moment.
    if ((error as { code?: string }).code === '23505') throw new AppError('WHATSAPP_NUMBER_IN_USE');
    throw error;
  }
  return present(ctx, companyId, await storedRow(ctx, companyId));
}

export async function deleteWhatsAppConnection(ctx: AppContext, actor: Actor): Promise<void> {
  const companyId = ownCompany(actor, 'update');
  await ctx.db.delete(whatsappConnections).where(eq(whatsappConnections.companyId, companyId));
}

/** Asks the Graph API for the number with the given token, or the saved one; tells why it failed otherwise. */
export async function testWhatsAppConnection(
  ctx: AppContext,
  actor: Actor,
  body: TestBody,
): Promise<WhatsAppTest> {
  const companyId = ownCompany(actor, 'update');
  let token = body.accessToken;
  if (!token) {
    const row = await storedRow(ctx, companyId);
    if (!row) throw new AppError('WHATSAPP_NOT_CONNECTED');
    token = box(ctx).open(row.accessTokenEncrypted);
  }
  try {
    const number = await numberAsMetaSees(ctx, companyId, token, body.phoneNumberId);
    return {
      ok: true,
      displayPhoneNumber: number.display_phone_number ?? null,
      verifiedName: number.verified_name ?? null,
      message: null,
    };
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const failure = error;
    const key =
      failure.status === 401 || failure.status === 403 || failure.code === 190
        ? 'whatsapp.test.tokenRefused'
        : failure.status === 0
          ? 'whatsapp.test.unreachable'
          : 'whatsapp.test.failed';
    return {
      ok: false,
      displayPhoneNumber: null,
      verifiedName: null,
      message: translate(actor.language, key, { code: String(failure.code || failure.status) }),
    };
  }
}

/** The connection a webhook address names, with its secrets opened; null for an unknown key. */
export async function connectionByKey(ctx: AppContext, companyKey: string): Promise<OpenConnection | null> {
  const [row] = await ctx.db
    .select()
    .from(whatsappConnections)
    .where(eq(whatsappConnections.companyKey, companyKey));
  return row ? open(ctx, row) : null;
}

export async function connectionOfCompany(
  ctx: AppContext,
  companyId: string,
): Promise<OpenConnection | null> {
  const row = await storedRow(ctx, companyId);
  return row ? open(ctx, row) : null;
}

function open(ctx: AppContext, row: Row): OpenConnection {
  const sealed = box(ctx);
  return {
    companyId: row.companyId,
    phoneNumberId: row.phoneNumberId,
    accessToken: sealed.open(row.accessTokenEncrypted),
    appSecret: sealed.open(row.appSecretEncrypted),
    verifyToken: row.verifyToken,
    unknownNumbers: row.unknownNumbers,
    publicChatId: row.publicChatId,
  };
}

/**
 * The company's WhatsApp number as Meta shows it, for the users who confirm their phone: saved when the connection
 * was checked, read from the Graph API once for a connection saved before that. Null without a connection, or when
 * Meta cannot tell.
 */
export async function whatsappNumberOf(
  ctx: AppContext,
  companyId: string,
): Promise<{ displayPhoneNumber: string | null } | null> {
  const row = await storedRow(ctx, companyId);
  if (!row) return null;
  if (row.displayPhoneNumber) return { displayPhoneNumber: row.displayPhoneNumber };
  const number = await new GraphClient(ctx, box(ctx).open(row.accessTokenEncrypted))
    .phoneNumber(row.phoneNumberId)
    .catch((error: unknown) => {
      ctx.log.warn({ err: error, companyId }, 'whatsapp number not read');
      return null;
    });
  const displayPhoneNumber = number?.display_phone_number ?? null;
  if (displayPhoneNumber) {
    await ctx.db
      .update(whatsappConnections)
      .set({ displayPhoneNumber })
      .where(eq(whatsappConnections.companyId, companyId));
  }
  return { displayPhoneNumber };
}
