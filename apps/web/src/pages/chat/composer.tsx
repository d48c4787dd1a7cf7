import {
  Alert,
  Box,
  IconButton,
  InputBase,
  Paper,
  Stack,
  Tooltip,
  Typography,
  useTheme,
} from '@mui/material';
import { IconPlayerStopFilled, IconSend } from '@tabler/icons-react';
import { QUESTION_MAX_LENGTH } from '@werkwissen/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SpeechAvailability, VoiceButton } from './voice-button.tsx';

/**
 * The question input with send (or stop while an answer streams) and, where the chat offers it, the voice button.
 * Disabled, saying why, while the chat has no ready file.
 */
export function Composer({
  canAsk,
  blocked,
  streaming,
  onSend,
  onStop,
  voice,
}: {
  canAsk: boolean;
  /** Why asking is closed, when it is not the missing ready file. */
  blocked?: string;
  streaming: boolean;
  /** Resolves with `refused` when the question was not taken: it goes back into the input. */
  onSend(text: string): Promise<'answered' | 'refused'>;
  onStop(): void;
  voice?: { speech: SpeechAvailability; transcribe(audio: Blob): Promise<string> };
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [recording, setRecording] = useState(false);
  // Controlled: a click disables the button under the pointer, which never leaves it, so MUI would keep it open.
  const [sendTooltip, setSendTooltip] = useState(false);
  const input = useRef<HTMLTextAreaElement | null>(null);
  const question = text.trim();
  const canSend = canAsk && !streaming && question.length > 0;

  const send = async () => {
    if (!canSend) return;
    setSendTooltip(false);
    setText('');
    setProblem(null);
    const outcome = await onSend(question);
    if (outcome === 'refused') setText((current) => current || question);
  };

  // Opening a chat puts the keyboard in the question box (not on touch screens, whose keyboard would cover the chat).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the chat opens
  useEffect(() => {
    if (canAsk && !window.matchMedia?.('(pointer: coarse)').matches) input.current?.focus();
  }, []);

  const addTranscript = (transcript: string) => {
    const words = transcript.trim();
    if (!words) return;
    setText((current) => (current.trim() ? `${current.trimEnd()} ${words}` : words));
    input.current?.focus();
  };

  return (
    <Box sx={{ p: { xs: 2, sm: 4 }, borderTop: 1, borderColor: 'divider' }}>
      {!canAsk && (
        <Alert severity="info" sx={{ mb: 3 }} data-testid="chat-no-ready-file">
          {blocked ?? t('errors.CHAT_NO_READY_FILE')}
        </Alert>
      )}
      {problem && (
        <Alert severity="warning" sx={{ mb: 3 }} onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
      {recording && (
        <Typography variant="body2" color="error" role="status" sx={{ mb: 2 }}>
          {t('chat.voice.recording')}
        </Typography>
      )}
      <Stack
        component="form"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'flex-end' }}
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <Paper
          variant="outlined"
          sx={{
            flex: 1,
            px: 3,
            py: 1.5,
            display: 'flex',
            '&:focus-within': {
              borderColor: 'primary.main',
              boxShadow: `0 0 0 1px ${theme.palette.primary.main}`,
            },
          }}
        >
          <InputBase
            multiline
            maxRows={6}
            fullWidth
            value={text}
            disabled={!canAsk}
            placeholder={t('chat.placeholder')}
            inputRef={input}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void send();
              }
            }}
            inputProps={{
              'aria-label': t('chat.input'),
              maxLength: QUESTION_MAX_LENGTH,
              name: 'question',
              dir: text ? 'auto' : undefined,
            }}
          />
        </Paper>
        {voice && (
          <VoiceButton
            speech={voice.speech}
            disabled={!canAsk}
            transcribe={voice.transcribe}
            onText={addTranscript}
            onProblem={setProblem}
            onRecording={setRecording}
          />
        )}
        {streaming ? (
          <Tooltip title={t('chat.stop')}>
            <IconButton color="error" aria-label={t('chat.stop')} onClick={onStop}>
              <IconPlayerStopFilled size={22} />
            </IconButton>
          </Tooltip>
        ) : (
          <Tooltip
            title={t('chat.send')}
            open={sendTooltip}
            onOpen={() => setSendTooltip(true)}
            onClose={() => setSendTooltip(false)}
          >
            <span>
              <IconButton type="submit" color="primary" aria-label={t('chat.send')} disabled={!canSend}>
                <IconSend
                  size={22}
                  style={theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : undefined}
                  data-testid="send-icon"
                />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Stack>
    </Box>
  );
}
