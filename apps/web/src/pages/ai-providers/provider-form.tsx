import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { IconLock, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import {
  type AiProviderBody,
  type AiProviderSettings,
  aiProviderBodySchema,
  type ConnectionTest,
  type ModelProvider,
  PROVIDER_DEFAULTS,
  sameProviderEndpoint,
} from '@werkwissen/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSaveAiProvider, useTestAiProvider } from '../../api/ai-providers.ts';
import { applyFieldErrors, errorMessage, InputField, PasswordField } from '../../components/form.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';

export interface ProviderValues {
  baseUrl: string;
  /** Empty: keep the saved key. */
  apiKey: string;
  model: string;
  transcriptionModel: string;
  isDefault: boolean;
}

const URL_PATTERN = /^https?:\/\/[^\s]+$/i;

/**
 * The form's schema: the shared body's rules on plain strings (an empty field is "none"). The server sends a saved key
 * only to the base URL it was saved for, so a changed URL needs the key typed again where the provider needs one.
 */
function formSchema(provider: ModelProvider, saved: AiProviderSettings | undefined) {
  const hasSavedKey = Boolean(saved?.apiKeyMasked);
  const shape = aiProviderBodySchema.shape;
  return z
    .object({
      baseUrl: z.string().trim().max(500, { message: 'validation.tooLong' }),
      apiKey: z.string().trim().max(500, { message: 'validation.tooLong' }),
      model: shape.model,
      transcriptionModel: z.string().trim().max(200, { message: 'validation.tooLong' }),
      isDefault: z.boolean(),
    })
    .superRefine((v, ctx) => {
      if (v.baseUrl && !URL_PATTERN.test(v.baseUrl))
        ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'validation.url' });
      if (!v.baseUrl && (provider === 'compatible' || PROVIDER_DEFAULTS[provider].baseUrl === null))
        ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'validation.required' });
      if (!v.apiKey && !hasSavedKey && PROVIDER_DEFAULTS[provider].needsKey)
        ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'validation.required' });
      if (
        !v.apiKey &&
        hasSavedKey &&
        PROVIDER_DEFAULTS[provider].needsKey &&
        !sameProviderEndpoint(provider, saved?.baseUrl, v.baseUrl)
      )
        ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'validation.apiKeyAgain' });
    });
}

/** The body of a save or test: empty fields become "none", an empty key "keep the saved one". */
export function toBody(values: ProviderValues): AiProviderBody {
  return {
    baseUrl: values.baseUrl.trim() || null,
    ...(values.apiKey.trim() ? { apiKey: values.apiKey.trim() } : {}),
    model: values.model.trim(),
    transcriptionModel: values.transcriptionModel.trim() || null,
    isDefault: values.isDefault,
  };
}

function initialValues(provider: ModelProvider, saved: AiProviderSettings | undefined): ProviderValues {
  const defaults = PROVIDER_DEFAULTS[provider];
  return {
    baseUrl: saved ? (saved.baseUrl ?? '') : (defaults.baseUrl ?? ''),
    apiKey: '',
    model: saved?.model ?? defaults.model,
    transcriptionModel: saved ? (saved.transcriptionModel ?? '') : (defaults.transcriptionModel ?? ''),
    isDefault: saved?.isDefault ?? false,
  };
}

/**
 * The settings of one provider: test the connection with what is typed, save, remove. A saved key never comes back
 * from the server; only its mask is shown, and an empty key field keeps it as long as the base URL is unchanged.
 */
export function ProviderForm({
  provider,
  saved,
  onRemove,
}: {
  provider: ModelProvider;
  saved: AiProviderSettings | undefined;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const name = t(`aiProviders.providers.${provider}`);
  const defaults = PROVIDER_DEFAULTS[provider];
  const form = useSchemaForm(formSchema(provider, saved), {
    defaultValues: initialValues(provider, saved),
  });
  const { errors } = form.formState;
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const fields = ['baseUrl', 'apiKey', 'model', 'transcriptionModel', 'isDefault'];

  // The test's outcome is shown beside its button; field errors go on their fields.
  const testing = useTestAiProvider(provider, {
    onSuccess: setResult,
    claimError: (error) => {
      if (!applyFieldErrors(error, form.setError, fields)) setTestError(errorMessage(error, t));
      return true;
    },
  });
  const test = async () => {
    if (!(await form.trigger(['baseUrl', 'apiKey']))) return;
    const { model, ...body } = toBody(form.getValues());
    setResult(null);
    setTestError(null);
    testing.mutate({ ...body, ...(model ? { model } : {}) });
  };

  const saving = useSaveAiProvider(provider, {
    onSuccess: (settings) => form.reset(initialValues(provider, settings)),
    claimError: (error) => applyFieldErrors(error, form.setError, fields),
  });
  const save = form.handleSubmit((values) => saving.mutate(toBody(values)));

  const models = result?.models ?? [];
  // The saved key stays with its base URL: once the URL is edited, the key has to be typed again (or, where it is
  // optional, is dropped on saving).
  const urlChanged =
    Boolean(saved?.apiKeyMasked) && !sameProviderEndpoint(provider, saved?.baseUrl, form.watch('baseUrl'));
  const keyHelp = urlChanged
    ? t(defaults.needsKey ? 'aiProviders.apiKeyNewUrl' : 'aiProviders.apiKeyNewUrlOptional')
    : saved?.apiKeyMasked
      ? t('aiProviders.apiKeyKeep')
      : defaults.needsKey
        ? t('aiProviders.apiKeyHelp')
        : t('aiProviders.apiKeyOptional');
  const keyRequired = defaults.needsKey && (!saved?.apiKeyMasked || urlChanged);

  return (
    <Card component="section" aria-labelledby="provider-form-title">
      <CardContent>
        <Typography id="provider-form-title" variant="h6" component="h2">
          {t('aiProviders.formTitle', { provider: name })}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, display: 'flex', gap: 1 }}>
          <IconLock size={18} aria-hidden style={{ flexShrink: 0 }} />
          {t('aiProviders.keysEncrypted')}
        </Typography>
        <Stack
          component="form"
          id="provider-form"
          spacing={4}
          noValidate
          onSubmit={save}
          sx={{ mt: 4 }}
          autoComplete="off"
        >
          <InputField
            {...form.register('baseUrl', {
              // Whether the key must be typed again depends on the URL: check a shown key error again.
              onChange: () => void (form.formState.errors.apiKey && form.trigger('apiKey')),
            })}
            id="provider-base-url"
            label={t('aiProviders.baseUrl')}
            type="url"
            placeholder={defaults.baseUrl ?? 'https://llm.example.com/v1'}
            helperText={t('aiProviders.baseUrlHelp')}
            errorKey={errors.baseUrl?.message}
            slotProps={{ input: { dir: 'ltr' } }}
          />
          <Stack spacing={1}>
            <PasswordField
              {...form.register('apiKey')}
              id="provider-api-key"
              label={t('aiProviders.apiKey')}
              autoComplete="new-password"
              required={keyRequired}
              helperText={keyHelp}
              errorKey={errors.apiKey?.message}
              slotProps={{ input: { dir: 'ltr', spellCheck: false } }}
            />
            {saved?.apiKeyMasked && !urlChanged && (
              <Typography variant="body2" color="text.secondary" data-testid="saved-key">
                {t('aiProviders.savedKey')}{' '}
                <Box component="code" dir="ltr">
                  {saved.apiKeyMasked}
                </Box>
              </Typography>
            )}
          </Stack>
          <Controller
            name="model"
            control={form.control}
            render={({ field }) => (
              <Autocomplete
                freeSolo
                options={models}
                value={field.value || null}
                inputValue={field.value}
                onChange={(_e, value) => field.onChange(value ?? '')}
                onInputChange={(_e, value) => field.onChange(value)}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    id="provider-model"
                    name={field.name}
                    inputRef={field.ref}
                    onBlur={field.onBlur}
                    label={t('aiProviders.model')}
                    error={Boolean(errors.model)}
                    helperText={errors.model?.message ? t(errors.model.message) : t('aiProviders.modelHelp')}
                  />
                )}
              />
            )}
          />
          <InputField
            {...form.register('transcriptionModel')}
            id="provider-transcription-model"
            label={t('aiProviders.transcriptionModel')}
            placeholder="whisper-1"
            helperText={t('aiProviders.transcriptionHelp')}
            errorKey={errors.transcriptionModel?.message}
            slotProps={{ input: { dir: 'ltr' } }}
          />
          <Controller
            name="isDefault"
            control={form.control}
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(e) => field.onChange(e.target.checked)}
                    name={field.name}
                  />
                }
                label={t('aiProviders.isDefault')}
              />
            )}
          />
          <Box aria-live="polite">
            {result?.ok && (
              <Alert severity="success">{t('aiProviders.testOk', { count: result.models.length })}</Alert>
            )}
            {result && !result.ok && (
              <Alert severity="error">{result.message ?? t('aiProviders.testFailed')}</Alert>
            )}
            {testError && <Alert severity="error">{testError}</Alert>}
          </Box>
          <Stack direction="row" spacing={3} sx={{ flexWrap: 'wrap', rowGap: 3 }}>
            <Button
              variant="outlined"
              startIcon={<IconPlugConnected size={18} />}
              onClick={() => void test()}
              disabled={testing.isPending}
            >
              {t(testing.isPending ? 'aiProviders.testing' : 'aiProviders.test')}
            </Button>
            <Button type="submit" variant="contained" disabled={saving.isPending}>
              {t('common.save')}
            </Button>
            <Box sx={{ flex: 1 }} />
            {saved && (
              <Button color="error" startIcon={<IconTrash size={18} />} onClick={onRemove}>
                {t('aiProviders.remove')}
              </Button>
            )}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
