import {
  Alert,
  Autocomplete,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import {
  type AnswerProvider,
  type Chat,
  type ChatOptions,
  type ChatVisibility,
  chatBodySchema,
  type Division,
} from '@werkwissen/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveChat } from '../../api/chats.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';

interface Values {
  name: string;
  visibility: ChatVisibility;
  provider: AnswerProvider;
  divisionIds: string[];
}
type Errors = Partial<Record<keyof Values, string>>;

/** The providers to offer: the company's, the built-in answerer always among them. */
export function offeredProviders(options: ChatOptions | undefined): ChatOptions['providers'] {
  const providers = options?.providers ?? [];
  return providers.some((p) => p.provider === 'builtin')
    ? providers
    : [{ provider: 'builtin', model: null }, ...providers];
}

/** Only what an edit changed (the update takes the fields it names). */
function changes(chat: Chat, values: Values) {
  const body: Partial<Values> = {};
  if (values.name.trim() !== chat.name) body.name = values.name.trim();
  if (values.visibility !== chat.visibility) body.visibility = values.visibility;
  if (values.provider !== chat.provider) body.provider = values.provider;
  const before = chat.divisions.map((d) => d.id).sort();
  const after = [...values.divisionIds].sort();
  if (before.join() !== after.join()) body.divisionIds = values.divisionIds;
  return body;
}

/**
 * Starts a chat (name, public or private, provider, divisions) or edits one; `preferred` is the provider a
 * provider path (/mistralai, …) chose. The public choice is offered only with the publish permission (or to make an
 * already public chat private).
 */
export function ChatDialog({
  chat,
  canPublish,
  options,
  divisions,
  preferred,
  onClose,
  onSaved,
}: {
  chat?: Chat;
  canPublish: boolean;
  options: ChatOptions | undefined;
  divisions: Division[] | undefined;
  preferred?: AnswerProvider;
  onClose(): void;
  onSaved(chat: Chat): void;
}) {
  const { t } = useTranslation();
  const providers = offeredProviders(options);
  const offered = (p: AnswerProvider | undefined) =>
    p && providers.some((o) => o.provider === p) ? p : undefined;
  const visibilityId = useId();
  const [values, setValues] = useState<Values>(() => ({
    name: chat?.name ?? '',
    visibility: chat?.visibility ?? 'private',
    provider: chat?.provider ?? offered(preferred) ?? offered(options?.defaultProvider) ?? 'builtin',
    divisionIds: chat?.divisions.map((d) => d.id) ?? [],
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  // Refusals are shown in the dialog: on their fields, else above the buttons.
  const saving = useSaveChat({
    onSuccess: onSaved,
    claimError: (error) => {
      const fields: Errors = {};
      if (error instanceof ApiError)
        for (const f of error.fieldErrors) {
          const field = f.field.split('.')[0]!;
          if (field in values) fields[field as keyof Values] = f.code;
        }
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFailure(errorMessage(error, t));
      return true;
    },
  });
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const save = () => {
    const parsed = chatBodySchema.safeParse(values);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Values] ??= issue.message;
      setErrors(next);
      return;
    }
    setFailure(null);
    saving.mutate(chat ? { chat, body: changes(chat, values) } : { body: parsed.data });
  };

  const fieldError = (key: keyof Values) => (errors[key] ? t(errors[key]) : undefined);
  const divisionOptions = divisions ?? [];
  const providerMissing = !chat && preferred && !offered(preferred);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <DialogTitle>{t(chat ? 'chat.dialog.editTitle' : 'chat.dialog.newTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={5} sx={{ pt: 2 }}>
            {failure && <Alert severity="error">{failure}</Alert>}
            {providerMissing && <Alert severity="info">{t('errors.PROVIDER_NOT_CONFIGURED')}</Alert>}
            <TextField
              label={t('chat.dialog.name')}
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              error={Boolean(errors.name)}
              helperText={fieldError('name')}
              required
              autoFocus
              slotProps={{ htmlInput: { maxLength: 80, name: 'chatName' } }}
            />
            {(canPublish || chat?.visibility === 'public') && (
              <FormControl>
                <FormLabel id={visibilityId}>{t('chat.dialog.visibility')}</FormLabel>
                <RadioGroup
                  aria-labelledby={visibilityId}
                  value={values.visibility}
                  onChange={(e) => set('visibility', e.target.value as ChatVisibility)}
                >
                  <FormControlLabel
                    value="private"
                    control={<Radio />}
                    label={t('chat.dialog.privateOption')}
                  />
                  <FormControlLabel
                    value="public"
                    control={<Radio />}
                    label={t('chat.dialog.publicOption')}
                  />
                </RadioGroup>
              </FormControl>
            )}
            <TextField
              select
              label={t('chat.dialog.provider')}
              value={values.provider}
              onChange={(e) => set('provider', e.target.value as AnswerProvider)}
            >
              {providers.map((p) => (
                <MenuItem key={p.provider} value={p.provider}>
                  {p.model
                    ? t('chat.providerModel', { provider: t(`chat.providers.${p.provider}`), model: p.model })
                    : t(`chat.providers.${p.provider}`)}
                </MenuItem>
              ))}
            </TextField>
            <Autocomplete
              multiple
              // Several divisions are picked in a row: the list stays open after each.
              disableCloseOnSelect
              options={divisionOptions}
              getOptionLabel={(d) => d.name}
              value={divisionOptions.filter((d) => values.divisionIds.includes(d.id))}
              onChange={(_e, value) =>
                set(
                  'divisionIds',
                  value.map((d) => d.id),
                )
              }
              renderValue={(value, getItemProps) =>
                value.map((d, index) => (
                  <Chip {...getItemProps({ index })} key={d.id} label={d.name} size="small" />
                ))
              }
              noOptionsText={t('chat.dialog.noDivisions')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  required
                  label={t('chat.dialog.divisions')}
                  error={Boolean(errors.divisionIds)}
                  helperText={fieldError('divisionIds') ?? t('chat.dialog.divisionsHelp')}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={saving.isPending}>
            {t(chat ? 'common.save' : 'chat.dialog.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
