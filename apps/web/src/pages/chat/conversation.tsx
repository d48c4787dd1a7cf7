import { Alert, Box, Button, Skeleton, Stack, Typography } from '@mui/material';
import { APP_ROUTES, type ChatMessage, type Tag } from '@werkwissen/shared';
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAnswerStream } from '../../api/answer-stream.ts';
import { type ConversationApi, useGiveFeedback, useMessages } from '../../api/conversations.ts';
import type { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { type OpenCitation, OpenCitationContext } from './citations.tsx';
import { Composer } from './composer.tsx';
import { AnswerBubble, LiveAnswerBubble, QuestionBubble } from './messages.tsx';
import type { SpeechAvailability } from './voice-button.tsx';

/** Where a data manager connects a language model. */
const PROVIDER_SETTINGS = APP_ROUTES.find((r) => r.id === 'aiProviders')!.path;

/**
 * A weak answer: the built-in answerer found nothing close enough to quote. (Its quotes are what it can do; a
 * language model would have written an answer from the same passages.)
 */
const isWeak = (m: ChatMessage) => m.role === 'assistant' && m.provider === 'builtin' && m.noAnswer;

/** Says that a language model writes answers, with the way to the provider settings. */
function ProviderHint() {
  const { t } = useTranslation();
  return (
    <Alert
      severity="info"
      data-testid="provider-hint"
      action={
        <Button component={Link} to={PROVIDER_SETTINGS} color="inherit" size="small">
          {t('chat.providerHintLink')}
        </Button>
      }
    >
      {t('chat.providerHint')}
    </Alert>
  );
}

/**
 * A conversation: the messages (a live region), the answer streaming in, and the input. The endpoints come from
 * `api`, so that the chat screen and the public chat page use the same component.
 */
export function Conversation({
  api,
  canAsk,
  blocked,
  tags,
  speech,
  empty,
  onRefused,
  providerHint = false,
}: {
  api: ConversationApi;
  canAsk: boolean;
  /** Why asking is closed when it is not the missing ready file (an ended plan). */
  blocked?: string;
  /** The company's feedback tags (signed-in users only). */
  tags?: Tag[];
  /** Voice input, where the endpoints transcribe. */
  speech?: SpeechAvailability;
  /** What an empty conversation says. */
  empty?: ReactNode;
  /** The server refused a question before answering. */
  onRefused?(error: ApiError): void;
  /** The reader can connect a language model (data managers): a weak answer says once that one would help. */
  providerHint?: boolean;
}) {
  const { t } = useTranslation();
  const messages = useMessages(api);
  const stream = useAnswerStream(api);
  const feedback = useGiveFeedback(api);
  const { live } = stream;
  const log = useRef<HTMLDivElement | null>(null);
  const stick = useRef(true);
  const [openCitation, setOpenCitation] = useState<OpenCitation>(null);
  const citationState = useMemo(() => ({ open: openCitation, setOpen: setOpenCitation }), [openCitation]);

  useEffect(() => {
    if (stream.error) onRefused?.(stream.error);
  }, [stream.error, onRefused]);

  const items = (messages.data?.items ?? []).filter((m) => m.id !== live?.replaces);
  const lastAnswer = items.findLast((m) => m.role === 'assistant');
  // Once per conversation: under its first weak answer.
  const hintAfter = providerHint ? items.find(isWeak)?.id : undefined;

  // Follow the conversation to its end unless the reader scrolled up.
  useLayoutEffect(() => {
    const el = log.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  const send = (text: string) => {
    stick.current = true;
    return stream.ask(text);
  };

  return (
    <OpenCitationContext value={citationState}>
      <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
        <Box
          ref={log}
          role="log"
          aria-live="polite"
          aria-busy={live ? true : undefined}
          aria-label={t('chat.conversation')}
          tabIndex={0}
          onScroll={(e) => {
            const el = e.currentTarget;
            stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
          }}
          sx={{
            flex: 1,
            minHeight: 0,
            overflowY: 'auto',
            px: { xs: 2, sm: 4 },
            py: 4,
            '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
          }}
        >
          <Stack spacing={4}>
            {messages.isPending && (
              <Stack spacing={4} aria-busy="true" aria-label={t('shell.loading')}>
                <Skeleton variant="rounded" height={48} width="50%" sx={{ alignSelf: 'flex-end' }} />
                <Skeleton variant="rounded" height={96} width="75%" />
              </Stack>
            )}
            {messages.isError && <Alert severity="error">{errorMessage(messages.error, t)}</Alert>}
            {messages.isSuccess && items.length === 0 && !live && (
              <Typography color="text.secondary" sx={{ textAlign: 'center', py: 8 }}>
                {empty ?? t('chat.emptyConversation')}
              </Typography>
            )}
            {items.map((m) =>
              m.role === 'user' ? (
                <QuestionBubble key={m.id} message={m} />
              ) : (
                <Stack key={m.id} spacing={2}>
                  <AnswerBubble
                    message={m}
                    linkFiles={api.linkFiles}
                    tags={tags}
                    onFeedback={async (body) => {
                      await feedback.mutateAsync({ messageId: m.id, body });
                    }}
                    onRegenerate={
                      api.regenerate && !live && canAsk && m === lastAnswer
                        ? () => {
                            stick.current = true;
                            void stream.regenerate(m.id);
                          }
                        : undefined
                    }
                  />
                  {m.id === hintAfter && <ProviderHint />}
                </Stack>
              ),
            )}
            {live?.question != null && <QuestionBubble message={live.question} />}
            {live && (
              <LiveAnswerBubble
                answerId={live.answerId}
                content={live.content}
                citations={live.citations}
                linkFiles={api.linkFiles}
              />
            )}
          </Stack>
        </Box>
        {stream.error && (
          <Alert severity="error" onClose={stream.clearError} sx={{ mx: { xs: 2, sm: 4 }, mb: 2 }}>
            {errorMessage(stream.error, t)}
          </Alert>
        )}
        <Composer
          canAsk={canAsk && !blocked}
          blocked={blocked}
          streaming={Boolean(live)}
          onSend={send}
          onStop={stream.stop}
          voice={speech && api.transcribe ? { speech, transcribe: api.transcribe } : undefined}
        />
      </Box>
    </OpenCitationContext>
  );
}
