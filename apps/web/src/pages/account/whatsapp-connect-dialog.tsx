import {
  Alert,
  Button,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { IconCopy, IconPlugConnected } from '@tabler/icons-react';
import {
  WHATSAPP_UNKNOWN_NUMBERS,
  type WhatsAppConnection,
  type WhatsAppTest,
  whatsappConnectionBodySchema,
} from '@werkwissen/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useChats } from '../../api/chats.ts';
import { useSaveWhatsAppConnection, useTestWhatsAppConnection } from '../../api/whatsapp.ts';
import { applyFieldErrors, errorMessage, InputField, PasswordField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';
import { useSnackbar } from '../../components/snackbar.tsx';

const FIELDS = [
  'phoneNumberId',
  'businessAccountId',
  'accessToken',
  'appSecret',
  'unknownNumbers',
  'publicChatId',
];

/** The shared body's rules; the secrets are required only before the first save, the chat only for unknown numbers. */
function formSchema(connected: boolean) {
  const shape = whatsappConnectionBodySchema.shape;
  const secret = z.string().trim().max(1000, { message: 'validation.tooLong' });
  return z
    .object({
      phoneNumberId: shape.phoneNumberId,
      businessAccountId: shape.businessAccountId,
      accessToken: secret,
      appSecret: secret,
      unknownNumbers: z.enum(WHATSAPP_UNKNOWN_NUMBERS),
      publicChatId: z.string(),
    })
    .superRefine((v, ctx) => {
      for (const name of ['accessToken', 'appSecret'] as const) {
        if (!v[name] && !connected)
          ctx.addIssue({ code: 'custom', path: [name], message: 'validation.required' });
        else if (v[name] && v[name].length < 8)
          ctx.addIssue({ code: 'custom', path: [name], message: 'whatsapp.validation.secret' });
      }
      if (v.unknownNumbers === 'publicChat' && !v.publicChatId)
        ctx.addIssue({ code: 'custom', path: ['publicChatId'], message: 'validation.required' });
    });
}

/** A value to paste into Meta's settings: read-only, written left to right, with a copy button. */
function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  return (
    <InputField
      id={id}
      label={label}
      value={value}
      readOnly
      slotProps={{ input: { dir: 'ltr' } }}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={`${t('whatsapp.copy')}: ${label}`}
            edge="end"
            onClick={() =>
              void navigator.clipboard?.writeText(value).then(() => snackbar(t('whatsapp.copied')))
            }
          >
            <IconCopy size={20} />
          </IconButton>
        </InputAdornment>
      }
    />
  );
}

/**
 * Connects the company's WhatsApp Business number: Meta's ids, the access token and app secret (sealed by the server,
 * shown only masked; empty keeps them), what to do with unknown numbers, the webhook URL and verify token to paste into
 * Meta's app, and a test that asks the Graph API for the number with what is typed.
 */
export function WhatsAppConnectDialog({
  connection,
  onClose,
}: {
  connection: WhatsAppConnection;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const chats = useChats('');
  const publicChats = (chats.data?.items ?? []).filter(
    (c) => c.visibility === 'public' && c.source === 'web',
  );
  const form = useSchemaForm(formSchema(connection.connected), {
    defaultValues: {
      phoneNumberId: connection.phoneNumberId,
      businessAccountId: connection.businessAccountId,
      accessToken: '',
      appSecret: '',
      unknownNumbers: connection.unknownNumbers,
      publicChatId: connection.publicChatId ?? '',
    },
  });
  const { errors } = form.formState;
  const [result, setResult] = useState<WhatsAppTest | null>(null);
  const [testError, setTestError] = useState<string | null>(null);

  const testing = useTestWhatsAppConnection({
    onSuccess: setResult,
    claimError: (error) => {
      if (!applyFieldErrors(error, form.setError, FIELDS)) setTestError(errorMessage(error, t));
      return true;
    },
  });
  const test = async () => {
    if (!(await form.trigger(['phoneNumberId', 'accessToken']))) return;
    const { phoneNumberId, accessToken } = form.getValues();
    setResult(null);
    setTestError(null);
    testing.mutate({ phoneNumberId, ...(accessToken.trim() ? { accessToken: accessToken.trim() } : {}) });
  };

  const saving = useSaveWhatsAppConnection({
    onSuccess: onClose,
    claimError: (error) => applyFieldErrors(error, form.setError, FIELDS),
  });
  const save = form.handleSubmit((v) =>
    saving.mutate({
      phoneNumberId: v.phoneNumberId,
      businessAccountId: v.businessAccountId,
      ...(v.accessToken.trim() ? { accessToken: v.accessToken.trim() } : {}),
      ...(v.appSecret.trim() ? { appSecret: v.appSecret.trim() } : {}),
      verifyToken: connection.verifyToken,
      unknownNumbers: v.unknownNumbers,
      publicChatId: v.unknownNumbers === 'publicChat' ? v.publicChatId : null,
    }),
  );
  const secretHelp = (hint: string) => (hint ? t('whatsapp.help.secretSaved', { hint }) : undefined);
  const unknown = form.watch('unknownNumbers');

  return (
    <FormDialog
      open
      onClose={onClose}
      title={t(connection.connected ? 'whatsapp.edit' : 'whatsapp.connect')}
      intro={t('whatsapp.intro')}
      formId="whatsapp-form"
      submitLabel={t('common.save')}
      pending={saving.isPending}
    >
      <Stack
        component="form"
        id="whatsapp-form"
        spacing={4}
        noValidate
        onSubmit={save}
        sx={{ mt: 4 }}
        autoComplete="off"
      >
        <InputField
          {...form.register('phoneNumberId')}
          id="whatsapp-phone-number-id"
          label={t('whatsapp.fields.phoneNumberId')}
          required
          inputMode="numeric"
          errorKey={errors.phoneNumberId?.message}
          slotProps={{ input: { dir: 'ltr' } }}
        />
        <InputField
          {...form.register('businessAccountId')}
          id="whatsapp-business-account-id"
          label={t('whatsapp.fields.businessAccountId')}
          required
          inputMode="numeric"
          errorKey={errors.businessAccountId?.message}
          slotProps={{ input: { dir: 'ltr' } }}
        />
        <PasswordField
          {...form.register('accessToken')}
          id="whatsapp-access-token"
          label={t('whatsapp.fields.accessToken')}
          autoComplete="new-password"
          required={!connection.connected}
          helperText={secretHelp(connection.accessTokenHint)}
          errorKey={errors.accessToken?.message}
          slotProps={{ input: { dir: 'ltr', spellCheck: false } }}
        />
        <PasswordField
          {...form.register('appSecret')}
          id="whatsapp-app-secret"
          label={t('whatsapp.fields.appSecret')}
          autoComplete="new-password"
          required={!connection.connected}
          helperText={secretHelp(connection.appSecretHint)}
          errorKey={errors.appSecret?.message}
          slotProps={{ input: { dir: 'ltr', spellCheck: false } }}
        />
        <Stack spacing={2}>
          <Button
            variant="outlined"
            startIcon={<IconPlugConnected size={20} />}
            onClick={() => void test()}
            disabled={testing.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('whatsapp.test.button')}
          </Button>
          {result?.ok && (
            <Alert severity="success">
              {t('whatsapp.test.ok', {
                number: result.displayPhoneNumber ?? '',
                name: result.verifiedName ?? '',
              })}
            </Alert>
          )}
          {result && !result.ok && <Alert severity="error">{result.message}</Alert>}
          {testError && <Alert severity="error">{testError}</Alert>}
        </Stack>
        <Controller
          control={form.control}
          name="unknownNumbers"
          render={({ field }) => (
            <TextField
              {...field}
              select
              id="whatsapp-unknown-numbers"
              label={t('whatsapp.fields.unknownNumbers')}
            >
              {WHATSAPP_UNKNOWN_NUMBERS.map((option) => (
                <MenuItem key={option} value={option}>
                  {t(`whatsapp.unknown.${option}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {unknown === 'publicChat' && (
          <Controller
            control={form.control}
            name="publicChatId"
            render={({ field }) => (
              <TextField
                {...field}
                select
                id="whatsapp-public-chat"
                label={t('whatsapp.fields.publicChat')}
                required
                error={Boolean(errors.publicChatId)}
                helperText={errors.publicChatId?.message ? t(errors.publicChatId.message) : undefined}
              >
                {publicChats.map((chat) => (
                  <MenuItem key={chat.id} value={chat.id}>
                    {chat.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
        <Typography variant="body2" color="text.secondary">
          {t('whatsapp.help.webhook')}
        </Typography>
        <CopyField
          id="whatsapp-webhook-url"
          label={t('whatsapp.fields.webhookUrl')}
          value={connection.webhookUrl}
        />
        <CopyField
          id="whatsapp-verify-token"
          label={t('whatsapp.fields.verifyToken')}
          value={connection.verifyToken}
        />
      </Stack>
    </FormDialog>
  );
}
