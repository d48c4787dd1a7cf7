import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  type EmailSetting,
  emailSettingCreateSchema,
  emailSettingUpdateSchema,
  MAIL_SECURITY,
  MAX_ALLOWED_EMAILS,
} from '@werkwissen/shared';
import { Controller, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDivisions } from '../../api/divisions.ts';
import { useSaveEmailSetting, useTestEmailConnection } from '../../api/email-settings.ts';
import { applyFieldErrors, InputField, PasswordField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';
import { SelectField } from '../../components/select-field.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';

/**
 * The form's fields: the contract's body, with the allowed addresses as objects (as react-hook-form's field arrays
 * want them; the API takes the plain addresses) and the cut-off as a day (yyyy-mm-dd; empty: only mails that arrive
 * after saving).
 */
type Values = Omit<Required<z.input<typeof emailSettingCreateSchema>>, 'allowedEmails' | 'answerFrom'> & {
  allowedEmails: Array<{ value: string }>;
  answerFrom: string;
};

const FIELDS = [
  'fromEmail',
  'allowedEmails',
  'divisionId',
  'isPrivate',
  'smtpHost',
  'smtpPort',
  'imapHost',
  'imapPort',
  'smtpEmail',
  'userName',
  'password',
  'security',
  'authservId',
  'answerFrom',
];

/** Today as yyyy-mm-dd in the reader's time zone (the latest day the cut-off may be). */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The form's values in the contract's shape. */
const toBody = (v: Values) => ({
  ...v,
  allowedEmails: v.allowedEmails.map((e) => e.value),
  // The chosen day from its start, in the reader's time zone.
  answerFrom: v.answerFrom ? new Date(`${v.answerFrom}T00:00`).toISOString() : undefined,
});

/** The form's values (typed by the form itself), read through the shared schema; a valid form becomes the save. */
const saveSchema = (setting: EmailSetting | null) =>
  setting
    ? z
        .custom<Values>()
        // An empty password of a saved setting is "keep it": absent, as the API wants it.
        .transform(
          (v): z.input<typeof emailSettingUpdateSchema> => ({
            ...toBody(v),
            password: v.password || undefined,
          }),
        )
        .pipe(emailSettingUpdateSchema)
        .transform((body) => ({ settingId: setting.id, body }))
    : z
        .custom<Values>()
        .transform((v): z.input<typeof emailSettingCreateSchema> => toBody(v))
        .pipe(emailSettingCreateSchema)
        .transform((body) => ({ body }));

/**
 * The add and edit dialog of an e-mail setting: the setting (from e-mail, up to two allowed e-mails, division,
 * private flag) and its SMTP details, with "Test connection" signing in to both servers for real.
 */
export function EmailSettingDialog({ setting, onClose }: { setting: EmailSetting | null; onClose(): void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const divisions = useDivisions();
  const form = useSchemaForm(saveSchema(setting), {
    defaultValues: {
      fromEmail: setting?.fromEmail ?? '',
      allowedEmails: (setting?.allowedEmails ?? ['']).map((value) => ({ value })),
      divisionId: setting?.divisionId ?? '',
      isPrivate: setting?.isPrivate ?? false,
      smtpHost: setting?.smtpHost ?? '',
      smtpPort: setting?.smtpPort ?? 587,
      imapHost: setting?.imapHost ?? '',
      imapPort: setting?.imapPort ?? 993,
      smtpEmail: setting?.smtpEmail ?? '',
      userName: setting?.userName ?? '',
      password: '',
      security: setting?.security ?? 'starttls',
      authservId: setting?.authservId ?? '',
      answerFrom: '',
    },
  });
  const allowed = useFieldArray({ control: form.control, name: 'allowedEmails' });
  const { errors } = form.formState;
  const save = useSaveEmailSetting({
    onSuccess: onClose,
    claimError: (error) => {
      applyFieldErrors(error, form.setError, FIELDS);
      return false;
    },
  });
  const test = useTestEmailConnection();
  const onSubmit = form.handleSubmit(
    (change) => save.mutate(change),
    () => snackbar(t('emailSettings.messages.formInvalid'), 'error'),
  );
  const runTest = () => {
    const v = form.getValues();
    test.mutate({
      smtpHost: v.smtpHost.trim(),
      smtpPort: Number(v.smtpPort),
      imapHost: v.imapHost.trim(),
      imapPort: Number(v.imapPort),
      smtpEmail: v.smtpEmail.trim(),
      userName: v.userName.trim(),
      password: v.password,
      security: v.security,
      ...(setting ? { settingId: setting.id } : {}),
    });
  };
  const allowedError = errors.allowedEmails?.message ?? errors.allowedEmails?.root?.message;
  const port = { inputMode: 'numeric' as const, min: 1, max: 65535 };
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t(setting ? 'emailSettings.editTitle' : 'emailSettings.add')}
      formId="email-setting-form"
      submitLabel={t(setting ? 'common.save' : 'common.create')}
      pending={save.isPending}
    >
      <Stack
        component="form"
        id="email-setting-form"
        spacing={4}
        noValidate
        onSubmit={onSubmit}
        sx={{ pt: 2 }}
      >
        <InputField
          {...form.register('fromEmail')}
          label={t('emailSettings.fields.fromEmail')}
          type="email"
          autoFocus
          errorKey={errors.fromEmail?.message}
        />
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" variant="subtitle2" sx={{ mb: 2 }}>
            {t('emailSettings.fields.allowedEmails')}
          </Typography>
          <Stack spacing={3}>
            {allowed.fields.map((field, index) => (
              <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                <InputField
                  {...form.register(`allowedEmails.${index}.value`)}
                  id={`allowed-email-${index}`}
                  label={t('emailSettings.fields.allowedEmail', { n: index + 1 })}
                  type="email"
                  errorKey={(errors.allowedEmails?.[index] as { message?: string } | undefined)?.message}
                />
                {allowed.fields.length > 1 && (
                  <IconButton
                    aria-label={t('emailSettings.removeAllowed', {
                      email: form.watch(`allowedEmails.${index}.value`) || index + 1,
                    })}
                    onClick={() => allowed.remove(index)}
                    sx={{ mt: 1 }}
                  >
                    <IconTrash size={20} />
                  </IconButton>
                )}
              </Stack>
            ))}
            <Typography
              variant="caption"
              color={allowedError ? 'error' : 'text.secondary'}
              role={allowedError ? 'alert' : undefined}
            >
              {allowedError ? t(allowedError) : t('emailSettings.help.allowed')}
            </Typography>
            <Box>
              <Button
                startIcon={<IconPlus size={18} />}
                onClick={() => {
                  if (allowed.fields.length >= MAX_ALLOWED_EMAILS) {
                    form.setError('allowedEmails', { message: 'emailSettings.validation.maxAllowedEmails' });
                    return;
                  }
                  allowed.append({ value: '' });
                }}
              >
                {t('emailSettings.addAllowed')}
              </Button>
            </Box>
          </Stack>
        </Box>
        <Controller
          name="divisionId"
          control={form.control}
          render={({ field }) => (
            <Box>
              <SelectField
                id="email-setting-division"
                label={t('emailSettings.fields.division')}
                value={field.value}
                onChange={field.onChange}
                size="medium"
                options={[
                  { value: '', label: '' },
                  ...(divisions.data?.items ?? []).map((d) => ({ value: d.id, label: d.name })),
                ]}
              />
              {errors.divisionId?.message && (
                <Typography variant="caption" color="error" role="alert" sx={{ display: 'block', mt: 1 }}>
                  {t(errors.divisionId.message)}
                </Typography>
              )}
            </Box>
          )}
        />
        <Controller
          name="isPrivate"
          control={form.control}
          render={({ field }) => (
            <FormControlLabel
              control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
              label={t('emailSettings.fields.isPrivate')}
            />
          )}
        />
        <Typography variant="h6" component="h2">
          {t('emailSettings.smtpDetails')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
          <InputField
            {...form.register('smtpHost')}
            label={t('emailSettings.fields.smtpHost')}
            errorKey={errors.smtpHost?.message}
          />
          <InputField
            {...form.register('smtpPort', { valueAsNumber: true })}
            label={t('emailSettings.fields.smtpPort')}
            type="number"
            slotProps={{ input: port }}
            helperText={t('emailSettings.help.port')}
            errorKey={errors.smtpPort?.message}
            sx={{ maxWidth: { sm: 180 } }}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
          <InputField
            {...form.register('imapHost')}
            label={t('emailSettings.fields.imapHost')}
            errorKey={errors.imapHost?.message}
          />
          <InputField
            {...form.register('imapPort', { valueAsNumber: true })}
            label={t('emailSettings.fields.imapPort')}
            type="number"
            slotProps={{ input: port }}
            helperText={t('emailSettings.help.port')}
            errorKey={errors.imapPort?.message}
            sx={{ maxWidth: { sm: 180 } }}
          />
        </Stack>
        <InputField
          {...form.register('smtpEmail')}
          label={t('emailSettings.fields.smtpEmail')}
          type="email"
          errorKey={errors.smtpEmail?.message}
        />
        <InputField
          {...form.register('userName')}
          label={t('emailSettings.fields.userName')}
          autoComplete="off"
          errorKey={errors.userName?.message}
        />
        <PasswordField
          {...form.register('password')}
          label={t('emailSettings.fields.password')}
          autoComplete="new-password"
          helperText={setting ? t('emailSettings.help.passwordKept') : undefined}
          errorKey={errors.password?.message}
        />
        <Controller
          name="security"
          control={form.control}
          render={({ field }) => (
            <SelectField
              id="email-setting-security"
              label={t('emailSettings.fields.security')}
              value={field.value}
              onChange={field.onChange}
              size="medium"
              options={MAIL_SECURITY.map((s) => ({ value: s, label: t(`emailSettings.security.${s}`) }))}
            />
          )}
        />
        <InputField
          {...form.register('authservId')}
          label={t('emailSettings.fields.authservId')}
          autoComplete="off"
          helperText={t('emailSettings.help.authservId')}
          errorKey={errors.authservId?.message}
        />
        <TextField
          {...form.register('answerFrom')}
          id="field-answerFrom"
          type="date"
          label={t('emailSettings.fields.answerFrom')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
          error={Boolean(errors.answerFrom)}
          helperText={
            errors.answerFrom?.message ? t(errors.answerFrom.message) : t('emailSettings.help.answerFrom')
          }
        />
        <Box>
          <Button
            variant="outlined"
            startIcon={<IconPlugConnected size={18} />}
            onClick={runTest}
            disabled={test.isPending}
          >
            {t('emailSettings.testConnection')}
          </Button>
        </Box>
        {test.data && (
          <Stack spacing={2} aria-live="polite">
            <Alert severity={test.data.smtp.ok ? 'success' : 'error'}>
              {test.data.smtp.ok
                ? t('emailSettings.test.smtpOk')
                : t('emailSettings.test.smtpFailed', { message: test.data.smtp.message })}
            </Alert>
            <Alert severity={test.data.imap.ok ? 'success' : 'error'}>
              {test.data.imap.ok
                ? t('emailSettings.test.imapOk')
                : t('emailSettings.test.imapFailed', { message: test.data.imap.message })}
            </Alert>
          </Stack>
        )}
      </Stack>
    </FormDialog>
  );
}
