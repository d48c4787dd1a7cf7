import {
  type ChatMessage,
  type ChatStreamEvent,
  chatContracts,
  chatStreamEventSchemas,
  type ErrorBody,
  type Feedback,
  type FeedbackBody,
  feedbackContracts,
  publicChatContracts,
} from '@werkwissen/shared';
import { ApiError, buildUrl, call, readCookie, sendRenewing } from '../../api/http.ts';
import { postEventStream } from '../../api/sse.ts';

export type StreamHandler = (event: ChatStreamEvent) => void;

/**
 * What a conversation needs from the server. The chat screen and the public chat page talk to different endpoints
 * (and only the signed-in user regenerates and dictates); the conversation components take them as this.
 */
export interface ConversationApi {
  /** The query key of the message list, so that the components share one cache entry. */
  messagesKey: readonly unknown[];
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
  options: { body?: unknown; signal: AbortSignal; session: boolean },
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

/** The conversation of a signed-in user in one of their chats. */
export function chatConversation(chatId: string): ConversationApi {
  const params = { chatId };
  return {
    messagesKey: ['chat-messages', chatId],
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

/** The conversation of a public chat's visitor (known by an httpOnly cookie; no session, no CSRF). */
export function publicConversation(token: string): ConversationApi {
  const params = { token };
  return {
    messagesKey: ['public-chat-messages', token],
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
