import {
  type ChatCompletionBody,
  type ChatMessage,
  chatIdOfModel,
  chatModelId,
  type Language,
  messageText,
  OPENAI_DEFAULT_MODEL,
  type OpenAiModel,
  type OpenAiUsage,
} from '@werkwissen/shared';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { translate } from '../../i18n/translator.ts';
import { countKeyQuestion } from '../api-keys/api-keys.service.ts';
import { companyLimit } from '../billing/company-plan.ts';
import { usedOf } from '../billing/limit-usage.queries.ts';
import { type AnswerOutput, type AskRequest, answerQuestion } from '../chat/answer-stream.ts';
import type { ChatRecord } from '../chat/chats.queries.ts';
import { apiChat, chatScope, listChats, loadChatWithThread } from '../chat/chats.service.ts';
import type { Turn } from '../chat/prompt.ts';

const PAGE = 100;
const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The models an actor may ask: the company's knowledge (every division they may read) and each web chat they see
 * (their own, and the public ones of their company whose divisions they may read), as the chat list shows them.
 */
export async function listModels(ctx: AppContext, actor: Actor, lang: Language): Promise<OpenAiModel[]> {
  homeCompany(actor);
  const owner = ctx.config.APP_TITLE;
  const models: OpenAiModel[] = [
    {
      id: OPENAI_DEFAULT_MODEL,
      object: 'model',
      created: unixSeconds(new Date()),
      owned_by: owner,
      name: translate(lang, 'pages.apiKeys.defaultModel'),
    },
  ];
  for (let page = 1; ; page++) {
    const { items, total } = await listChats(ctx, actor, { page, pageSize: PAGE });
    for (const chat of items.filter((c) => c.source === 'web')) {
      models.push({
        id: chatModelId(chat.id),
        object: 'model',
        created: unixSeconds(new Date(chat.createdAt)),
        owned_by: owner,
        name: chat.name,
      });
    }
    if (page * PAGE >= total) return models;
  }
}

/** The chat a model stands for: the actor's API chat, or a chat they see; anything else is not found. */
async function chatOfModel(
  ctx: AppContext,
  actor: Actor,
  model: string,
): Promise<{ chat: ChatRecord; threadId: string }> {
  if (model === OPENAI_DEFAULT_MODEL) return apiChat(ctx, actor);
  const chatId = chatIdOfModel(model);
  if (!chatId) throw new AppError('NOT_FOUND');
  return loadChatWithThread(ctx, actor, chatId);
}

/**
 * The question (the last message) in the chat its model names, in the actor's own thread there, with the earlier
 * user and assistant turns of the request as its conversation (system and tool messages are not ours to follow).
 */
async function askRequest(
  ctx: AppContext,
  actor: Actor,
  body: ChatCompletionBody,
  language: Language,
): Promise<AskRequest> {
  const { chat, threadId } = await chatOfModel(ctx, actor, body.model);
  const history: Turn[] = body.messages.slice(0, -1).flatMap((m) => {
    const text = messageText(m);
    return (m.role === 'user' || m.role === 'assistant') && text ? [{ role: m.role, content: text }] : [];
  });
  return {
    chat,
    threadId,
    scope: chatScope(chat, actor),
    language,
    ask: { question: messageText(body.messages.at(-1)!) ?? '', history },
  };
}

/** A stored answer with the request it answers, for OpenAI's shapes (openai-format.ts). */
export interface Answered {
  answer: ChatMessage;
  usage: OpenAiUsage;
}

/** Roughly four characters to a token: the built-in answerer counts none, a provider's own count is not kept. */
const tokens = (text: string) => Math.ceil(text.length / 4);

async function usageOf(
  ctx: AppContext,
  companyId: string,
  body: ChatCompletionBody,
  answer: ChatMessage,
): Promise<OpenAiUsage> {
  const prompt = tokens(body.messages.map((m) => messageText(m) ?? '').join('\n'));
  const completion = tokens(answer.content);
  const { max } = await companyLimit(ctx, companyId, 'questionsPerMonth');
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    questions: 1,
    questions_this_month: await usedOf(ctx.db, companyId, 'questionsPerMonth'),
    questions_per_month: max,
  };
}

/**
 * Answers a chat completion with the chat's own pipeline (`answerQuestion`: the same retrieval, provider and
 * built-in answerer, the question stored in the actor's thread and counted against the plan's monthly questions
 * atomically), counts it for the API key that asked, and resolves with the stored answer. What fails before the
 * answer starts throws (an unknown model, no ready file, the plan's limit); a provider that fails afterwards is the
 * answer's error code, for the caller to report.
 */
export async function answerCompletion(
  ctx: AppContext,
  actor: Actor,
  body: ChatCompletionBody,
  language: Language,
  output: AnswerOutput,
): Promise<Answered> {
  const req = await askRequest(ctx, actor, body, language);
  const answer = await answerQuestion(ctx, req, output);
  if (actor.apiKeyId) await countKeyQuestion(ctx, actor.apiKeyId);
  return {
    answer,
    usage: await usageOf(ctx, req.chat.companyId, body, answer),
  };
}
