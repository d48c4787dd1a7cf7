import {
  Alert,
  Box,
  Button,
  CardContent,
  Chip,
  Grid,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  type emailTemplateSchema,
  type Language,
  type TemplateText,
  templateTextSchema,
} from '@werkwissen/shared';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  useResetTemplate,
  useSaveTemplate,
  useSendTestEmail,
  useTemplatePreview,
} from '../../api/email-templates.ts';
import { ApiError } from '../../api/http.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { MailFrame } from '../../components/mail-frame.tsx';

type Template = z.infer<typeof emailTemplateSchema>;
type Field = keyof TemplateText;
type FieldErrors = Partial<Record<Field, string>>;

/** The server's refusal of a draft as messages on its fields (a template problem names its field). */
function fieldErrorsOf(error: unknown, t: TFunction): FieldErrors | null {
  if (!(error instanceof ApiError)) return null;
  const field = error.details?.field;
  if (field === 'subject' || field === 'body') return { [field]: errorMessage(error, t) };
  const errors: FieldErrors = {};
  for (const f of error.fieldErrors)
    if (f.field === 'subject' || f.field === 'body') errors[f.field] = f.message;
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * One language of a template: subject and body with the kind's variables (a click inserts one where the cursor was),
 * a preview rendered by the server with sample data while typing, save, a test mail to oneself and reset.
 */
export function TemplateEditor({
  kind,
  template,
  variables,
}: {
  kind: Template['kind'];
  template: Template['languages'][number];
  variables: Template['variables'];
}) {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const canEdit = ability.can('update', 'EmailTemplate');
  const language: Language = template.language;
  const [text, setText] = useState<TemplateText>({ subject: template.subject, body: template.body });
  const [draft, setDraft] = useState(text);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [resetting, setResetting] = useState(false);
  const inputs = { subject: useRef<HTMLInputElement>(null), body: useRef<HTMLTextAreaElement>(null) };
  const lastField = useRef<Field>('body');
  const dirty = text.subject !== template.subject || text.body !== template.body;

  // The preview follows the text half a second after the last keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setDraft(text), 500);
    return () => clearTimeout(timer);
  }, [text]);
  const preview = useTemplatePreview(kind, language, draft);
  const previewErrors = preview.isError ? fieldErrorsOf(preview.error, t) : null;
  // A refused save wins over the preview's refusal of the same field; a field being typed in shows the preview's.
  const shownErrors: FieldErrors = {
    subject: errors.subject ?? previewErrors?.subject,
    body: errors.body ?? previewErrors?.body,
  };

  const claim = (error: unknown) => {
    const fields = fieldErrorsOf(error, t);
    if (fields) setErrors(fields);
    return fields !== null;
  };
  const save = useSaveTemplate({ claimError: claim });
  const reset = useResetTemplate({ onSettled: () => setResetting(false) });
  const sendTest = useSendTestEmail();

  const change = (field: Field, value: string) => {
    setText((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const insert = (name: string) => {
    const field = lastField.current;
    const input = inputs[field].current;
    const token = `{{${name}}}`;
    const value = text[field];
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    change(field, value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  const submit = () => {
    const parsed = templateTextSchema.safeParse(text);
    if (!parsed.success) {
      const local: FieldErrors = {};
      for (const issue of parsed.error.issues) local[issue.path[0] as Field] ??= t(issue.message);
      setErrors(local);
      return;
    }
    save.mutate({ kind, language, text: parsed.data });
  };

  return (
    <CardContent>
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={4}>
            <TextField
              label={t('admin.templates.subject')}
              value={text.subject}
              inputRef={inputs.subject}
              onFocus={() => {
                lastField.current = 'subject';
              }}
              onChange={(e) => change('subject', e.target.value)}
              error={Boolean(shownErrors.subject)}
              helperText={shownErrors.subject}
              slotProps={{ htmlInput: { dir: 'auto', readOnly: !canEdit } }}
              fullWidth
            />
            <TextField
              label={t('admin.templates.body')}
              value={text.body}
              inputRef={inputs.body}
              onFocus={() => {
                lastField.current = 'body';
              }}
              onChange={(e) => change('body', e.target.value)}
              error={Boolean(shownErrors.body)}
              helperText={shownErrors.body ?? t('admin.templates.bodyHelp')}
              multiline
              minRows={10}
              slotProps={{ htmlInput: { dir: 'auto', readOnly: !canEdit } }}
              fullWidth
            />
            <Box>
              <Typography variant="subtitle2" component="h3" sx={{ mb: 2 }}>
                {t('admin.templates.variables')}
              </Typography>
              <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
                {variables.map((v) => (
                  <Tooltip key={v.name} title={v.description}>
                    <Chip
                      label={`{{${v.name}}}`}
                      variant={v.required ? 'filled' : 'outlined'}
                      color={v.required ? 'primary' : 'default'}
                      onClick={canEdit ? () => insert(v.name) : undefined}
                      aria-label={t('admin.templates.insertVariable', {
                        name: v.name,
                        description: v.description,
                      })}
                      sx={{ direction: 'ltr', fontFamily: 'monospace' }}
                    />
                  </Tooltip>
                ))}
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                {t('admin.templates.requiredHelp')}
              </Typography>
            </Box>
            {canEdit && (
              <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
                <Button variant="contained" onClick={submit} disabled={!dirty || save.isPending}>
                  {t('common.save')}
                </Button>
                <Tooltip title={dirty ? t('admin.templates.saveFirst') : ''}>
                  <span>
                    <Button
                      variant="outlined"
                      disabled={dirty || sendTest.isPending}
                      onClick={() => sendTest.mutate({ kind, language })}
                    >
                      {t('admin.templates.sendTest')}
                    </Button>
                  </span>
                </Tooltip>
                <Button color="error" disabled={!template.edited} onClick={() => setResetting(true)}>
                  {t('admin.templates.reset')}
                </Button>
              </Stack>
            )}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 2 }}>
            {t('admin.templates.preview')}
          </Typography>
          {previewErrors && <Alert severity="warning">{t('admin.templates.previewRefused')}</Alert>}
          {preview.data && (
            <Stack spacing={2} sx={{ opacity: preview.isFetching || previewErrors ? 0.6 : 1 }}>
              <Typography dir="auto" sx={{ fontWeight: 600 }} data-testid="preview-subject">
                {preview.data.subject}
              </Typography>
              <MailFrame html={preview.data.html} title={t('admin.templates.preview')} height={560} />
            </Stack>
          )}
        </Grid>
      </Grid>
      <ConfirmDialog
        open={resetting}
        title={t('admin.templates.resetTitle')}
        text={t('admin.templates.resetText')}
        confirmLabel={t('admin.templates.reset')}
        pending={reset.isPending}
        onConfirm={() => reset.mutate({ kind, language })}
        onClose={() => setResetting(false)}
      />
    </CardContent>
  );
}
