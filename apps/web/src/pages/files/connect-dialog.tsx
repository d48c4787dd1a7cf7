import { Alert, Stack } from '@mui/material';
import type { ConnectorCreate } from '@werkwissen/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConnect } from '../../api/connectors.ts';
import { ApiError } from '../../api/http.ts';
import { applyFieldErrors, errorMessage, InputField, PasswordField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { SelectField } from '../../components/select-field.tsx';

interface Fields {
  name: string;
  url: string;
  userName: string;
  password: string;
  folder: string;
  fileTypes: string;
  intervalMinutes: string;
}

const FIELDS = ['name', 'url', 'userName', 'password', 'folder', 'fileTypes', 'intervalMinutes'];
const INTERVALS = ['15', '60', '360', '1440'];

/** Connects a WebDAV folder: the server tries it before it stores it, and says why when it cannot read it. */
export default function ConnectDialog({ divisionId, onClose }: { divisionId: string; onClose(): void }) {
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Fields>({
    defaultValues: {
      name: '',
      url: '',
      userName: '',
      password: '',
      folder: '',
      fileTypes: '',
      intervalMinutes: '60',
    },
  });
  const connect = useConnect(divisionId, {
    onSuccess: onClose,
    claimError: (error) => {
      if (applyFieldErrors(error, form.setError, FIELDS)) return true;
      if (error instanceof ApiError && error.code === 'CONNECTOR_UNREACHABLE') {
        setRefusal(errorMessage(error, t));
        return true;
      }
      return false;
    },
  });
  const submit = form.handleSubmit((v) => {
    setRefusal(null);
    const body: ConnectorCreate = {
      kind: 'webdav',
      name: v.name,
      url: v.url.trim(),
      userName: v.userName,
      password: v.password,
      folder: v.folder,
      fileTypes: v.fileTypes
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      intervalMinutes: Number(v.intervalMinutes),
    };
    connect.mutate(body);
  });
  const err = (name: keyof Fields) => form.formState.errors[name]?.message;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('connectors.dialogTitle')}
      intro={t('connectors.dialogHint')}
      formId="connect-form"
      submitLabel={t('connectors.connect')}
      pending={connect.isPending}
    >
      <Stack component="form" id="connect-form" noValidate spacing={2.5} sx={{ mt: 2 }} onSubmit={submit}>
        {refusal && <Alert severity="error">{refusal}</Alert>}
        <InputField label={t('connectors.fields.name')} errorKey={err('name')} {...form.register('name')} />
        <InputField
          label={t('connectors.fields.url')}
          helperText={t('connectors.fields.urlHelp')}
          errorKey={err('url')}
          inputProps={{ dir: 'ltr' }}
          {...form.register('url')}
        />
        <InputField
          label={t('connectors.fields.userName')}
          errorKey={err('userName')}
          autoComplete="off"
          {...form.register('userName')}
        />
        <PasswordField
          label={t('connectors.fields.password')}
          errorKey={err('password')}
          autoComplete="new-password"
          {...form.register('password')}
        />
        <InputField
          label={t('connectors.fields.folder')}
          helperText={t('connectors.fields.folderHelp')}
          errorKey={err('folder')}
          {...form.register('folder')}
        />
        <InputField
          label={t('connectors.fields.fileTypes')}
          helperText={t('connectors.fields.fileTypesHelp')}
          errorKey={err('fileTypes')}
          {...form.register('fileTypes')}
        />
        <SelectField
          id="connect-interval"
          label={t('connectors.fields.interval')}
          value={form.watch('intervalMinutes')}
          onChange={(v) => form.setValue('intervalMinutes', v)}
          options={INTERVALS.map((m) => ({ value: m, label: t(`connectors.intervals.${m}`) }))}
          size="medium"
        />
      </Stack>
    </FormDialog>
  );
}
