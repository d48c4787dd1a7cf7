import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type PublicChat,
  type PublicVisitor,
  publicChatContracts,
  type visitorBodySchema,
} from '@werkwissen/shared';
import { useCallback } from 'react';
import type { z } from 'zod';
import { type ConversationApi, streamChat } from './conversations.ts';
import { ApiError, buildUrl, call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of a public chat opened by its share link: the chat (with the visitor) and the visitor's messages. */
export const publicChatKeys = {
  all: ['public-chats'] as const,
  detail: (token: string) => [...publicChatKeys.all, 'detail', token] as const,
  messages: (token: string) => [...publicChatKeys.all, 'messages', token] as const,
};

/** The chat behind a share link; a link that is gone (4xx) is not asked for again. */
export function usePublicChat(token: string) {
  return useQuery({
    queryKey: publicChatKeys.detail(token),
    queryFn: () => call(publicChatContracts.get, { params: { token } }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}

/** Loads the chat again, e.g. when the visitor's cookie ran out and the bot check has to be passed again. */
export function useReloadPublicChat(token: string) {
  const queryClient = useQueryClient();
  return useCallback(
    () => void queryClient.invalidateQueries({ queryKey: publicChatKeys.detail(token) }),
    [queryClient, token],
  );
}

type VisitorBody = z.input<typeof visitorBodySchema>;

/**
 * Becomes the link's visitor; the chat then shows the conversation. The visitor form shows every refusal on its
 * fields or above its button (`claimError`).
 */
export function useJoinPublicChat(token: string, callbacks?: MutationCallbacks<VisitorBody, PublicVisitor>) {
  return useApiMutation(
    {
      mutationFn: (body: VisitorBody) => call(publicChatContracts.join, { params: { token }, body }),
      update: (queryClient, visitor) =>
        queryClient.setQueryData<PublicChat>(publicChatKeys.detail(token), (old) =>
          old ? { ...old, visitor } : old,
        ),
      invalidates: () => [],
    },
    callbacks,
  );
}

/** The conversation of a public chat's visitor (known by an httpOnly cookie; no session, no CSRF). */
export function publicConversation(token: string): ConversationApi {
  const params = { token };
  return {
    messagesKey: publicChatKeys.messages(token),
    answerChanges: [],
    loadMessages: () => call(publicChatContracts.messages, { params }),
    ask: (content, signal, onEvent) =>
      streamChat(
        buildUrl(publicChatContracts.ask.path, params),
        { body: { content }, signal, session: false },
        onEvent,
      ),
    giveFeedback: (messageId, body) =>
      call(publicChatContracts.feedback, { params: { token, messageId }, body }),
    linkFiles: false,
  };
}
