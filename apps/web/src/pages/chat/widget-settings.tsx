import {
  Alert,
  Button,
  FormControlLabel,
  IconButton,
  InputAdornment,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { IconCopy } from '@tabler/icons-react';
import { type Chat, type ChatWidget, chatWidgetBodySchema } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChatWidget, useSaveChatWidget } from '../../api/chat-widget.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';

/** The one line a website includes to show the chat as a widget (the launcher script of this installation). */
export const widgetSnippet = (shareToken: string) =>
  `<script src="${location.origin}/widget.js" data-chat="${shareToken}" async></script>`;

/** The first refusal of a list of origins, as a locale key with the line it is on (1-based), or null. */
function originsError(error: unknown): { key: string; line: number | null } | null {
  if (!(error instanceof ApiError)) return null;
  const field = error.fieldErrors.find((f) => f.field === 'origins' || f.field.startsWith('origins.'));
  if (!field) return null;
  const index = Number(field.field.split('.')[1]);
  return { key: field.code, line: Number.isInteger(index) ? index + 1 : null };
}

function WidgetForm({ chat, saved }: { chat: Chat & { shareToken: string }; saved: ChatWidget }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [text, setText] = useState(saved.origins.join('\n'));
  const [invalid, setInvalid] = useState<{ key: string; line: number | null } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const saving = useSaveChatWidget(chat.id, {
    claimError: (error) => {
      const refusal = originsError(error);
      if (refusal) setInvalid(refusal);
      else setFailure(errorMessage(error, t));
      return true;
    },
  });
  const snippet = widgetSnippet(chat.shareToken);

  const save = () => {
    const body = { enabled, origins: text.split('\n').filter((line) => line.trim() !== '') };
    const parsed = chatWidgetBodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const index = issue.path[1];
      setInvalid({ key: issue.message, line: typeof index === 'number' ? index + 1 : null });
      return;
    }
    setInvalid(null);
    setFailure(null);
    saving.mutate(body);
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      snackbar(t('chat.widget.copied'));
    } catch {
      snackbar(t('chat.share.copyFailed'), 'warning');
    }
  };

  const help = invalid
    ? `${invalid.line ? `${t('chat.widget.line', { line: invalid.line })} ` : ''}${t(invalid.key)}`
    : t('chat.widget.originsHelp');

  return (
    <Stack spacing={3} data-testid="widget-settings">
      {failure && <Alert severity="error">{failure}</Alert>}
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
        label={t('chat.widget.enabled')}
      />
      <TextField
        label={t('chat.widget.origins')}
        name="origins"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setInvalid(null);
        }}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        error={invalid !== null}
        helperText={help}
        placeholder="https://www.example.de"
        slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
      />
      <Button variant="outlined" onClick={save} loading={saving.isPending} sx={{ alignSelf: 'flex-start' }}>
        {t('chat.widget.save')}
      </Button>
      {saved.enabled && (
        <TextField
          label={t('chat.widget.snippet')}
          value={snippet}
          fullWidth
          multiline
          helperText={t('chat.widget.snippetHelp')}
          onFocus={(e) => e.target.select()}
          slotProps={{
            htmlInput: { readOnly: true, dir: 'ltr', 'data-testid': 'widget-snippet' },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t('chat.widget.copy')}>
                    <IconButton aria-label={t('chat.widget.copy')} onClick={() => void copy()} edge="end">
                      <IconCopy size={20} />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    </Stack>
  );
}

/**
 * A shared public chat as a widget on the company's website: on or off, the websites that may show it, and the line
 * to paste into them (for whoever may publish the chat).
 */
export function WidgetSettings({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const widget = useChatWidget(chat.id);
  const shareToken = chat.shareToken;
  return (
    <Stack spacing={2}>
      <Typography variant="subtitle1" component="h3">
        {t('chat.widget.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('chat.widget.intro')}
      </Typography>
      {!shareToken ? (
        <Typography variant="body2">{t('chat.widget.needsLink')}</Typography>
      ) : widget.isError ? (
        <Alert severity="error">{errorMessage(widget.error, t)}</Alert>
      ) : widget.data ? (
        <WidgetForm key={shareToken} chat={{ ...chat, shareToken }} saved={widget.data} />
      ) : (
        <Skeleton variant="rounded" height={120} />
      )}
    </Stack>
  );
}
