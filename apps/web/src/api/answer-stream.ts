import { useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, ChatStreamEvent, Citation } from '@werkwissen/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationApi } from './conversations.ts';
import { ApiError } from './http.ts';
import { invalidateAll } from './mutation.ts';

/** The question and answer being streamed, until the stored answer replaces them. */
export interface LiveAnswer {
  /** The question just asked; null when an earlier answer is written again. */
  question: string | null;
  /** The answer a regeneration replaces. */
  replaces: string | null;
  questionId: string | null;
  answerId: string | null;
  content: string;
  citations: Citation[];
  /** The provider failed mid-answer (an `error` event). */
  errorMessage: string | null;
}

type Messages = { items: ChatMessage[] };

const blank = (
  id: string,
  role: ChatMessage['role'],
  content: string,
  status: ChatMessage['status'],
): ChatMessage => ({
  id,
  role,
  content,
  status,
  errorCode: null,
  errorMessage: null,
  noAnswer: false,
  citations: [],
  provider: null,
  model: null,
  feedback: null,
  createdAt: new Date().toISOString(),
});

/**
 * Asks a question (or regenerates an answer) and follows the streamed answer: `live` grows with every token and
 * citation; when the stream ends (done, stopped by `stop()`, or broken) the answer moves into the message list's
 * cache, and what else an answer changes (`api.answerChanges`) reloads. A refusal before the stream starts is kept in
 * `error`.
 */
export function useAnswerStream(api: ConversationApi) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [live, setLive] = useState<LiveAnswer | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const liveRef = useRef<LiveAnswer | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  // Leaving the conversation ends its stream; the server keeps what was written as a stopped answer.
  useEffect(() => () => abortRef.current?.abort(), []);

  const update = (change: (live: LiveAnswer) => LiveAnswer) => {
    if (!liveRef.current) return;
    liveRef.current = change(liveRef.current);
    setLive(liveRef.current);
  };

  const commit = async (answer: ChatMessage | null) => {
    const current = liveRef.current;
    if (!current) return;
    // A load of the list still under way was read before the answer was stored and would put back the list without
    // it: it is dropped, and the list read again once the answer is in.
    const key = api.messagesKey;
    const loading = queryClient.isFetching({ queryKey: key }) > 0;
    if (loading) await queryClient.cancelQueries({ queryKey: key });
    queryClient.setQueryData<Messages>(key, (old) => {
      const items = (old?.items ?? []).filter((m) => m.id !== current.replaces && m.id !== answer?.id);
      if (current.question !== null)
        items.push(blank(current.questionId ?? `local-${Date.now()}`, 'user', current.question, 'complete'));
      if (answer) items.push(answer);
      return { items };
    });
    if (loading) void queryClient.invalidateQueries({ queryKey: key });
  };

  const run = async (
    start: (signal: AbortSignal, onEvent: (event: ChatStreamEvent) => void) => Promise<void>,
    initial: LiveAnswer,
  ): Promise<'answered' | 'refused'> => {
    const controller = new AbortController();
    abortRef.current = controller;
    liveRef.current = initial;
    setLive(initial);
    setError(null);
    let started = false;
    let stored: ChatMessage | null = null;
    const onEvent = (event: ChatStreamEvent) => {
      started = true;
      switch (event.event) {
        case 'start':
          update((l) => ({ ...l, questionId: event.data.questionId, answerId: event.data.messageId }));
          break;
        case 'token':
          update((l) => ({ ...l, content: l.content + event.data.text }));
          break;
        case 'citation':
          update((l) =>
            l.citations.some((c) => c.n === event.data.n)
              ? l
              : { ...l, citations: [...l.citations, event.data] },
          );
          break;
        case 'error':
          update((l) => ({ ...l, errorMessage: event.data.message || t('errors.INTERNAL') }));
          break;
        case 'done':
          stored = event.data;
          break;
      }
    };

    let outcome: 'answered' | 'refused' = 'answered';
    try {
      await start(controller.signal, onEvent);
    } catch (caught) {
      if (!started && !(caught as Error)?.name?.startsWith('Abort')) {
        setError(caught instanceof ApiError ? caught : new ApiError(0, 'NETWORK', ''));
        outcome = 'refused';
      }
    }
    const l = liveRef.current!;
    if (outcome === 'refused') {
      // Nothing was stored: the question goes back into the input.
    } else if (stored) {
      await commit(stored);
    } else if (l.answerId) {
      const aborted = controller.signal.aborted;
      await commit({
        ...blank(l.answerId, 'assistant', l.content, aborted ? 'stopped' : 'interrupted'),
        citations: l.citations,
        errorCode: aborted ? null : 'NETWORK',
        errorMessage: aborted ? null : (l.errorMessage ?? t('errors.NETWORK')),
      });
    } else {
      // Stopped before the server named the answer: whatever it kept comes with the next load.
      outcome = 'refused';
      void queryClient.invalidateQueries({ queryKey: api.messagesKey });
    }
    if (abortRef.current === controller) abortRef.current = null;
    liveRef.current = null;
    setLive(null);
    void invalidateAll(queryClient, api.answerChanges);
    return outcome;
  };

  const fresh = (question: string | null, replaces: string | null): LiveAnswer => ({
    question,
    replaces,
    questionId: null,
    answerId: null,
    content: '',
    citations: [],
    errorMessage: null,
  });

  const ask = (content: string) =>
    run((signal, onEvent) => api.ask(content, signal, onEvent), fresh(content, null));

  const regenerate = (messageId: string) => {
    const again = api.regenerate;
    if (!again) return Promise.resolve('refused' as const);
    return run((signal, onEvent) => again(messageId, signal, onEvent), fresh(null, messageId));
  };

  const stop = useCallback(() => abortRef.current?.abort(), []);
  const clearError = useCallback(() => setError(null), []);

  return { live, error, ask, regenerate, stop, clearError };
}
