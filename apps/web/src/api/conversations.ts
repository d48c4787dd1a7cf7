import { type QueryKey, useQuery } from '@tanstack/react-query';
import {
  type ChatMessage,
  type ChatStreamEvent,
  chatStreamEventSchemas,
  type Feedback,
  type FeedbackBody,
} from '@werkwissen/shared';
import { dashboardKeys } from './dashboard.ts';
import { feedbackKeys } from './feedback.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';
import { postEventStream } from './sse.ts';
import { tagKeys } from './tags.ts';

export type StreamHandler = (event: ChatStreamEvent) => void;

/**
 * What a conversation needs from the server. The chat screen (`chatConversation` in `chats.ts`) and the public chat
 * page (`publicConversation` in `public-chats.ts`) talk to different endpoints (and only the signed-in user
 * regenerates and dictates); the conversation components take them as this.
 */
export interface ConversationApi {
  /** The query key of the message list, so that the components share one cache entry. */
  messagesKey: QueryKey;
  /** What else an answer makes stale (the chat's place and counts in the chat list). */
  answerChanges: QueryKey[];
  loadMessages(): Promise<{ items: ChatMessage[] }>;
  ask(content: string, signal: AbortSignal, onEvent: StreamHandler): Promise<void>;
  regenerate?(messageId: string, signal: AbortSignal, onEvent: StreamHandler): Promise<void>;
  giveFeedback(messageId: string, body: FeedbackBody): Promise<Feedback>;
  transcribe?(audio: Blob): Promise<string>;
  /** Cited files open from their links (visitors of a public chat cannot open files). */
  linkFiles: boolean;
}

/** Posts to a streaming endpoint and hands on its events typed; events of unknown type or broken data are skipped. */
export function streamChat(
  url: string,
  options: { body?: unknown; signal: AbortSignal; session: boolean; headers?: Record<string, string> },
  onEvent: StreamHandler,
): Promise<void> {
  return postEventStream(url, options, ({ event, data }) => {
    if (!Object.hasOwn(chatStreamEventSchemas, event)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    onEvent({ event, data: parsed } as ChatStreamEvent);
  });
}

/** The message list of a conversation, shared by everything that shows it (one cache entry per conversation). */
export function useMessages(api: ConversationApi) {
  return useQuery({ queryKey: api.messagesKey, queryFn: () => api.loadMessages() });
}

interface GiveFeedback {
  messageId: string;
  body: FeedbackBody;
}

/**
 * Likes, dislikes or describes an answer; the answer shows the saved feedback at once. A like shows itself on its
 * pressed button, so only the detailed feedback (mood, rating, tag, comment) is confirmed in the snackbar. The
 * reports, the dashboard's satisfaction and, with a tag, the tags' counts change with it.
 */
export function useGiveFeedback(api: ConversationApi, callbacks?: MutationCallbacks<GiveFeedback, Feedback>) {
  return useApiMutation(
    {
      mutationFn: ({ messageId, body }: GiveFeedback) => api.giveFeedback(messageId, body),
      update: (queryClient, feedback, { messageId }) =>
        queryClient.setQueryData<{ items: ChatMessage[] }>(api.messagesKey, (old) =>
          old ? { items: old.items.map((m) => (m.id === messageId ? { ...m, feedback } : m)) } : old,
        ),
      success: (t, _feedback, { body }) => ('liked' in body ? undefined : t('chat.feedback.saved')),
      invalidates: ({ body }) => [
        feedbackKeys.all,
        dashboardKeys.all,
        ...('tagId' in body ? [tagKeys.all] : []),
      ],
    },
    callbacks,
  );
}
