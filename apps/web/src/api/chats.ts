import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import {
  type Chat,
  type ChatBody,
  chatContracts,
  type ErrorBody,
  feedbackContracts,
} from '@werkwissen/shared';
import { type ConversationApi, streamChat } from './conversations.ts';
import { dashboardKeys } from './dashboard.ts';
import { ApiError, buildUrl, call, readCookie, sendRenewing } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the chats: the list per search, one chat, the providers on offer, a conversation's messages. */
export const chatKeys = {
  all: ['chats'] as const,
  lists: () => [...chatKeys.all, 'list'] as const,
  list: (q: string) => [...chatKeys.lists(), { q }] as const,
  details: () => [...chatKeys.all, 'detail'] as const,
  detail: (chatId: string) => [...chatKeys.details(), chatId] as const,
  options: () => [...chatKeys.all, 'options'] as const,
  messages: (chatId: string) => [...chatKeys.all, 'messages', chatId] as const,
};

/** The chats the user sees (the first 100, newest first), searched by name; the last list stays while typing. */
export function useChats(q: string) {
  return useQuery({
    queryKey: chatKeys.list(q),
    queryFn: () => call(chatContracts.list, { query: { pageSize: 100, q: q || undefined } }),
    placeholderData: keepPreviousData,
  });
}

/** One chat by itself (one the list does not show); a missing chat is not asked for again. */
export function useChat(chatId: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: chatKeys.detail(chatId ?? ''),
    queryFn: () => call(chatContracts.get, { params: { chatId: chatId! } }),
    enabled: Boolean(chatId) && enabled,
    retry: false,
  });
}

/** The answer providers the company configured and whether voice input works. */
export function useChatOptions() {
  return useQuery({ queryKey: chatKeys.options(), queryFn: () => call(chatContracts.options) });
}

/** A saved chat replaces its old copies at once; the lists reload for their order and counts. */
function replaceChat(queryClient: QueryClient, chat: Chat) {
  queryClient.setQueriesData<{ items: Chat[] }>({ queryKey: chatKeys.lists() }, (old) =>
    old ? { ...old, items: old.items.map((c) => (c.id === chat.id ? chat : c)) } : old,
  );
  queryClient.setQueryData(chatKeys.detail(chat.id), chat);
}

interface Save {
  /** The chat to change; absent: a new one. */
  chat?: Chat;
  /** For a change, only what changed. */
  body: Partial<ChatBody>;
}

/** Creates a chat or saves the changes to one (nothing changed: nothing is sent). */
export function useSaveChat(callbacks?: MutationCallbacks<Save, Chat>) {
  return useApiMutation(
    {
      mutationFn: ({ chat, body }: Save) =>
        chat
          ? Object.keys(body).length > 0
            ? call(chatContracts.update, { params: { chatId: chat.id }, body })
            : Promise.resolve(chat)
          : call(chatContracts.create, { body: body as ChatBody }),
      update: replaceChat,
      success: (t, _chat, { chat }) => t(chat ? 'chat.dialog.saved' : 'chat.dialog.created'),
      invalidates: () => [chatKeys.lists()],
    },
    callbacks,
  );
}

interface Share {
  chatId: string;
  /** A new share link (replacing the old one), or none. */
  action: 'share' | 'unshare';
}

export function useShareChat(callbacks?: MutationCallbacks<Share, Chat>) {
  return useApiMutation(
    {
      mutationFn: ({ chatId, action }: Share) => call(chatContracts[action], { params: { chatId } }),
      update: replaceChat,
      success: (t, _chat, { action }) => t(action === 'share' ? 'chat.share.created' : 'chat.share.revoked'),
      invalidates: () => [chatKeys.lists()],
    },
    callbacks,
  );
}

/** Deletes a chat; its conversation leaves the cache before the lists reload. */
export function useDeleteChat(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (chatId: string) => call(chatContracts.remove, { params: { chatId } }),
      update: (queryClient, _data, chatId) =>
        queryClient.removeQueries({ queryKey: chatKeys.messages(chatId) }),
      success: (t) => t('chat.deleted'),
      invalidates: () => [chatKeys.lists()],
    },
    callbacks,
  );
}

/** The conversation of a signed-in user in one of their chats. */
export function chatConversation(chatId: string): ConversationApi {
  const params = { chatId };
  return {
    messagesKey: chatKeys.messages(chatId),
    answerChanges: [chatKeys.lists(), dashboardKeys.all],
    loadMessages: () => call(chatContracts.messages, { params }),
    ask: (content, signal, onEvent) =>
      streamChat(
        buildUrl(chatContracts.ask.path, params),
        { body: { content }, signal, session: true },
        onEvent,
      ),
    regenerate: (messageId, signal, onEvent) =>
      streamChat(
        buildUrl(chatContracts.regenerate.path, { chatId, messageId }),
        { signal, session: true },
        onEvent,
      ),
    giveFeedback: (messageId, body) => call(feedbackContracts.give, { params: { messageId }, body }),
    transcribe: (audio) => transcribe(chatId, audio),
    linkFiles: true,
  };
}

/** The file name a recording is sent under, from its type (`audio/webm;codecs=opus` → `voice.webm`). */
export function recordingName(type: string): string {
  const sub = /^audio\/([a-z0-9]+)/i.exec(type)?.[1]?.toLowerCase();
  const ext = sub === 'mp4' || sub === 'x-m4a' ? 'm4a' : sub === 'mpeg' ? 'mp3' : (sub ?? 'webm');
  return `voice.${ext}`;
}

/** Sends a voice recording (multipart field `audio`) to be transcribed; resolves with the text to edit. */
async function transcribe(chatId: string, audio: Blob): Promise<string> {
  const url = buildUrl(chatContracts.transcribe.path, { chatId });
  const send = () => {
    const form = new FormData();
    form.append('audio', new File([audio], recordingName(audio.type), { type: audio.type }));
    return fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', 'x-csrf-token': readCookie('ww_csrf') ?? '' },
      body: form,
      credentials: 'same-origin',
    });
  };
  const res = await sendRenewing(send);
  const body = (await res.json().catch(() => null)) as { text?: string } & Partial<ErrorBody>;
  if (!res.ok) {
    const error = body?.error;
    throw new ApiError(res.status, error?.code ?? 'INTERNAL', error?.message ?? '', error?.details);
  }
  return body?.text ?? '';
}
