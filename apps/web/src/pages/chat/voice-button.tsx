import { Box, CircularProgress, IconButton, Tooltip } from '@mui/material';
import { IconMicrophone, IconPlayerStopFilled } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/form.tsx';

export interface SpeechAvailability {
  available: boolean;
  /** Why voice input is unavailable, translated by the server. */
  reason: string | null;
}

type State = 'idle' | 'recording' | 'transcribing';

/** The message for a refused `getUserMedia`, by the DOMException's name. */
function microphoneProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'chat.voice.denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'chat.voice.noMicrophone';
  return 'chat.voice.failed';
}

/**
 * Records a voice message with the microphone (MediaRecorder, webm where the browser has it), sends it to be
 * transcribed and hands the text on for editing. Never sends the question itself.
 */
export function VoiceButton({
  speech,
  disabled,
  transcribe,
  onText,
  onProblem,
  onRecording,
}: {
  speech: SpeechAvailability;
  disabled?: boolean;
  transcribe(audio: Blob): Promise<string>;
  onText(text: string): void;
  onProblem(message: string | null): void;
  onRecording?(recording: boolean): void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('idle');
  const recorder = useRef<MediaRecorder | null>(null);
  const cancelled = useRef(false);

  const change = (next: State) => {
    setState(next);
    onRecording?.(next === 'recording');
  };

  // Leaving the screen while recording releases the microphone and drops the recording.
  useEffect(
    () => () => {
      cancelled.current = true;
      if (recorder.current?.state === 'recording') recorder.current.stop();
    },
    [],
  );

  const start = async () => {
    onProblem(null);
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      onProblem(t('chat.voice.unsupported'));
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      onProblem(t(microphoneProblem(error)));
      return;
    }
    const mimeType = MediaRecorder.isTypeSupported?.('audio/webm') ? 'audio/webm' : undefined;
    const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = async () => {
      for (const track of stream.getTracks()) track.stop();
      recorder.current = null;
      if (cancelled.current) return;
      const audio = new Blob(chunks, { type: rec.mimeType || mimeType || 'audio/webm' });
      change('transcribing');
      try {
        const text = await transcribe(audio);
        if (!cancelled.current) onText(text);
      } catch (error) {
        if (!cancelled.current) onProblem(errorMessage(error, t));
      } finally {
        if (!cancelled.current) change('idle');
      }
    };
    recorder.current = rec;
    rec.start();
    change('recording');
  };

  if (!speech.available) {
    // Focusable although unusable, so that keyboard users reach the tooltip that says why.
    return (
      <Tooltip title={speech.reason ?? t('errors.SPEECH_UNAVAILABLE')} describeChild>
        <IconButton
          aria-label={t('chat.voice.record')}
          aria-disabled="true"
          onClick={(e) => e.preventDefault()}
          sx={{ color: 'text.disabled' }}
        >
          <IconMicrophone size={22} />
        </IconButton>
      </Tooltip>
    );
  }
  if (state === 'transcribing') {
    return (
      <Box sx={{ display: 'flex', p: 1.5 }} role="status" aria-label={t('chat.voice.transcribing')}>
        <CircularProgress size={22} />
      </Box>
    );
  }
  const recording = state === 'recording';
  const label = t(recording ? 'chat.voice.stop' : 'chat.voice.record');
  return (
    <Tooltip title={label}>
      <span>
        <IconButton
          aria-label={label}
          aria-pressed={recording}
          color={recording ? 'error' : 'default'}
          disabled={disabled && !recording}
          onClick={() => (recording ? recorder.current?.stop() : void start())}
        >
          {recording ? <IconPlayerStopFilled size={22} /> : <IconMicrophone size={22} />}
        </IconButton>
      </span>
    </Tooltip>
  );
}
