import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { IconRefresh } from '@tabler/icons-react';
import type { ChatMessage, Citation, FeedbackBody, Tag } from '@werkwissen/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format.ts';
import { CitedAnswer } from './citations.tsx';
import { FeedbackBar } from './feedback.tsx';

/** Read by screen readers, not shown. */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  p: 0,
  m: '-1px',
} as const;

const bounce = keyframes`
  0%, 80%, 100% { transform: translateY(0); opacity: 0.4; }
  40% { transform: translateY(-4px); opacity: 1; }
`;
const blink = keyframes`50% { opacity: 0; }`;

/** Three bouncing dots until the first word of the answer arrives. */
function TypingIndicator() {
  const { t } = useTranslation();
  return (
    <Box data-testid="typing-indicator" sx={{ display: 'inline-flex', gap: 1, py: 1, alignItems: 'center' }}>
      {[0, 1, 2].map((i) => (
        <Box
          key={i}
          aria-hidden
          sx={{
            width: 8,
            height: 8,
            borderRadius: '50%',
            bgcolor: 'text.secondary',
            animation: `${bounce} 1.2s ${i * 0.15}s infinite ease-in-out`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }}
        />
      ))}
      <Box component="span" sx={visuallyHidden}>
        {t('chat.typing')}
      </Box>
    </Box>
  );
}

function Bubble({
  id,
  own,
  speaker,
  time,
  children,
}: {
  id?: string;
  own: boolean;
  speaker: string;
  time?: string;
  children: ReactNode;
}) {
  return (
    <Box
      id={id ? `message-${id}` : undefined}
      tabIndex={id ? -1 : undefined}
      data-testid={own ? 'question' : 'answer'}
      sx={{ display: 'flex', justifyContent: own ? 'flex-end' : 'flex-start', outline: 'none' }}
    >
      <Box sx={{ maxWidth: { xs: '92%', md: '80%' }, minWidth: 0 }}>
        <Paper
          elevation={0}
          sx={{
            px: 4,
            py: 3,
            borderRadius: 2,
            ...(own
              ? { bgcolor: 'primary.main', color: 'primary.contrastText', borderEndEndRadius: 4 }
              : { bgcolor: 'action.hover', borderEndStartRadius: 4 }),
          }}
        >
          <Box component="span" sx={visuallyHidden}>
            {speaker}:
          </Box>
          {children}
        </Paper>
        {time && (
          <Typography
            variant="caption"
            color="text.secondary"
            component="p"
            sx={{ mt: 0.5, textAlign: own ? 'end' : 'start' }}
          >
            {time}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

export function QuestionBubble({
  message,
}: {
  message: Pick<ChatMessage, 'id' | 'content' | 'createdAt'> | string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const m = typeof message === 'string' ? null : message;
  return (
    <Bubble id={m?.id} own speaker={t('chat.you')} time={m ? format.dateTime(m.createdAt) : undefined}>
      <Typography dir="auto" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {typeof message === 'string' ? message : message.content}
      </Typography>
    </Bubble>
  );
}

/** An answer being written: the typing dots, then the text as it grows, its citations as they are announced. */
export function LiveAnswerBubble({
  answerId,
  content,
  citations,
  linkFiles,
}: {
  answerId: string | null;
  content: string;
  citations: Citation[];
  linkFiles: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Bubble own={false} speaker={t('chat.assistant')}>
      {content ? (
        <CitedAnswer
          answerId={answerId}
          content={content}
          citations={citations}
          linkFiles={linkFiles}
          trailing={
            <Box
              component="span"
              aria-hidden
              sx={{ animation: `${blink} 1s step-end infinite`, ms: 0.5, color: 'text.secondary' }}
            >
              ▍
            </Box>
          }
        />
      ) : (
        <TypingIndicator />
      )}
    </Bubble>
  );
}

/** A stored answer with its citations, how it ended, its feedback, and (on the last one) "answer again". */
export function AnswerBubble({
  message,
  linkFiles,
  tags,
  onFeedback,
  onRegenerate,
}: {
  message: ChatMessage;
  linkFiles: boolean;
  tags?: Tag[];
  onFeedback(body: FeedbackBody): Promise<void>;
  onRegenerate?(): void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Bubble
      id={message.id}
      own={false}
      speaker={t('chat.assistant')}
      time={format.dateTime(message.createdAt)}
    >
      {message.noAnswer ? (
        <Typography dir="auto" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {message.content}
        </Typography>
      ) : (
        <CitedAnswer
          answerId={message.id}
          content={message.content}
          citations={message.citations}
          linkFiles={linkFiles}
        />
      )}
      {message.status === 'stopped' && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="p"
          sx={{ mt: 2, fontStyle: 'italic' }}
        >
          {t('chat.stopped')}
        </Typography>
      )}
      {message.status === 'interrupted' && (
        <Alert severity="warning" sx={{ mt: 3 }}>
          {message.errorMessage ?? t('errors.PROVIDER_STREAM_INTERRUPTED')}
        </Alert>
      )}
      <Stack direction="row" sx={{ mt: 2, mx: -1, alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <FeedbackBar feedback={message.feedback} tags={tags} onGive={onFeedback} />
        {onRegenerate && (
          <Button
            size="small"
            startIcon={<IconRefresh size={16} />}
            onClick={onRegenerate}
            sx={{ color: 'text.secondary' }}
          >
            {t('chat.regenerate')}
          </Button>
        )}
      </Stack>
    </Bubble>
  );
}
