import { useQuery } from '@tanstack/react-query';
import {
  type ChatWidget,
  type ChatWidgetBody,
  chatWidgetContracts,
  type PublicChat,
  type PublicVisitor,
  publicChatContracts,
  VISITOR_TOKEN_HEADER,
  type visitorBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import { type ConversationApi, streamChat } from './conversations.ts';
import { ApiError, buildUrl, call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

export const chatWidgetKeys = {
  all: ['chat-widget'] as const,
  settings: (chatId: string) => [...chatWidgetKeys.all, 'settings', chatId] as const,
  view: (token: string) => [...chatWidgetKeys.all, 'view', token] as const,
  messages: (token: string) => [...chatWidgetKeys.all, 'messages', token] as const,
};

/** A public chat's widget settings (for whoever may publish it). */
export function useChatWidget(chatId: string) {
  return useQuery({
    queryKey: chatWidgetKeys.settings(chatId),
    queryFn: () => call(chatWidgetContracts.get, { params: { chatId } }),
  });
}

export function useSaveChatWidget(chatId: string, callbacks?: MutationCallbacks<ChatWidgetBody, ChatWidget>) {
  return useApiMutation(
    {
      mutationFn: (body: ChatWidgetBody) => call(chatWidgetContracts.update, { params: { chatId }, body }),
      update: (queryClient, widget) => queryClient.setQueryData(chatWidgetKeys.settings(chatId), widget),
      success: (t) => t('chat.widget.saved'),
      invalidates: () => [],
    },
    callbacks,
  );
}

/**
 * The widget's visitor token, kept in the frame's own storage (which the browser keeps apart per website); a
 * browser that keeps nothing gets a new visitor on every visit.
 */
const storageKey = (token: string) => `ww_widget_visitor:${token}`;
function storedVisitorToken(token: string): string | null {
  try {
    return localStorage.getItem(storageKey(token));
  } catch {
    return null;
  }
}
function storeVisitorToken(token: string, visitorToken: string | null): void {
  try {
    if (visitorToken) localStorage.setItem(storageKey(token), visitorToken);
    else localStorage.removeItem(storageKey(token));
  } catch {
    // Storage refused: the visitor lasts as long as the page.
  }
}
const visitorHeaders = (token: string): Record<string, string> => {
  const visitor = storedVisitorToken(token);
  return visitor ? { [VISITOR_TOKEN_HEADER]: visitor } : {};
};

/** The chat a widget shows; a widget that is off or gone (4xx) is not asked for again. */
export function useWidgetChat(token: string) {
  return useQuery({
    queryKey: chatWidgetKeys.view(token),
    queryFn: async () => {
      const chat = await call(chatWidgetContracts.view, {
        params: { token },
        headers: visitorHeaders(token),
      });
      // A token the server no longer knows (the visitor ran out) is dropped: the bot check comes again.
      if (!chat.visitor) storeVisitorToken(token, null);
      return chat;
    },
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}

type VisitorBody = z.input<typeof visitorBodySchema>;

/** Becomes the widget's visitor; the token is kept for the frame's next calls. */
export function useJoinWidget(token: string, callbacks?: MutationCallbacks<VisitorBody, PublicVisitor>) {
  return useApiMutation(
    {
      mutationFn: async (body: VisitorBody) => {
        const { visitorToken, ...visitor } = await call(chatWidgetContracts.join, {
          params: { token },
          body,
          headers: visitorHeaders(token),
        });
        storeVisitorToken(token, visitorToken);
        return visitor;
      },
      update: (queryClient, visitor) =>
        queryClient.setQueryData<PublicChat>(chatWidgetKeys.view(token), (old) =>
          old ? { ...old, visitor } : old,
        ),
      invalidates: () => [],
    },
    callbacks,
  );
}

/** The conversation of a widget's visitor: the public chat's endpoints, the visitor known by its header. */
export function widgetConversation(token: string): ConversationApi {
  const params = { token };
  return {
    messagesKey: chatWidgetKeys.messages(token),
    answerChanges: [],
    loadMessages: () => call(publicChatContracts.messages, { params, headers: visitorHeaders(token) }),
    ask: (content, signal, onEvent) =>
      streamChat(
        buildUrl(publicChatContracts.ask.path, params),
        { body: { content }, signal, session: false, headers: visitorHeaders(token) },
        onEvent,
      ),
    giveFeedback: (messageId, body) =>
      call(publicChatContracts.feedback, {
        params: { token, messageId },
        body,
        headers: visitorHeaders(token),
      }),
    linkFiles: false,
  };
}
