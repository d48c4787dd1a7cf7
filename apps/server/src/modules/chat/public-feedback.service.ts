import type { Language } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { feedback } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { requireBotCheck } from '../bot-check/bot-check.ts';
import { sharedChat } from './public-chats.service.ts';

export interface PublicFeedbackInput {
  chatToken: string;
  rating: number;
  comment?: string;
  name?: string;
  botCheck?: string;
}

/**
 * Stores an anonymous visitor's rating of a public chat as feedback of its company (origin `public`, no question or
 * answer), so that it appears in the company's public-feedback report. The bot check comes first; an unknown or
 * unshared chat is 404, a suspended company's PUBLIC_CHAT_SUSPENDED.
 */
export async function submitPublicFeedback(
  ctx: AppContext,
  input: PublicFeedbackInput,
  client: { ip: string; language: Language },
): Promise<void> {
  await requireBotCheck(ctx, input.botCheck, client.ip);
  const chat = await sharedChat(ctx, input.chatToken);
  await ctx.db.insert(feedback).values({
    companyId: chat.companyId,
    chatId: chat.id,
    chatName: chat.name,
    divisionIds: chat.divisionIds,
    origin: 'public',
    givenBy: input.name?.trim() || translate(client.language, 'publicFeedback.anonymous'),
    question: '',
    answer: '',
    rating: input.rating,
    comment: input.comment?.trim() || null,
  });
}
