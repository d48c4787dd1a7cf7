import { Alert, Stack } from '@mui/material';
import type { Connector, ConnectorUpdate } from '@werkwissen/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useUpdateConnector } from '../../api/connectors.ts';
import { ApiError } from '../../api/http.ts';
import { applyFieldErrors, errorMessage, InputField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { fileTypesOf, LoginFields, ScheduleFields } from './connector-fields.tsx';

interface Fields {
  name: string;
  fileTypes: string;
  intervalMinutes: string;
  userName: string;
  password: string;
}

const FIELDS = ['name', 'fileTypes', 'intervalMinutes', 'userName', 'password'];

/**
 * Changes a connector without connecting it again (its files keep their history): its name, schedule and file
 * types, and for WebDAV the login (an empty password keeps the saved one; a new one is tried by the server first).
 */
export default function EditConnectorDialog({
  connector,
  onClose,
}: {
  connector: Connector;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Fields>({
    defaultValues: {
      name: connector.name,
      fileTypes: connector.fileTypes.join(', '),
      intervalMinutes: String(connector.intervalMinutes),
      userName: connector.userName,
      password: '',
    },
  });
  const update = useUpdateConnector(connector.id, {
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
  const webdav = connector.kind === 'webdav';
  const submit = form.handleSubmit((v) => {
    setRefusal(null);
    const body: ConnectorUpdate = {
      name: v.name,
      fileTypes: fileTypesOf(v.fileTypes),
      intervalMinutes: Number(v.intervalMinutes),
      ...(webdav && v.userName !== connector.userName && { userName: v.userName }),
      ...(webdav && v.password !== '' && { password: v.password }),
    };
    update.mutate(body);
  });
  const err = (name: keyof Fields) => form.formState.errors[name]?.message;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('connectors.editTitle')}
      intro={t('connectors.editHint')}
      formId="edit-connector-form"
      submitLabel={t('common.save')}
      pending={update.isPending}
    >
      <Stack
        component="form"
        id="edit-connector-form"
        noValidate
        spacing={2.5}
        sx={{ mt: 2 }}
        onSubmit={submit}
      >
        {refusal && <Alert severity="error">{refusal}</Alert>}
        <InputField label={t('connectors.fields.name')} errorKey={err('name')} {...form.register('name')} />
        {webdav && (
          <LoginFields
            userName={form.register('userName')}
            userNameError={err('userName')}
            password={form.register('password')}
            passwordError={err('password')}
            passwordHelp={t('connectors.fields.passwordKeep')}
          />
        )}
        <ScheduleFields
          id="edit-connector-interval"
          fileTypes={form.register('fileTypes')}
          fileTypesError={err('fileTypes')}
          interval={form.watch('intervalMinutes')}
          onInterval={(v) => form.setValue('intervalMinutes', v)}
        />
      </Stack>
    </FormDialog>
  );
}
