import { Alert, Stack } from '@mui/material';
import type { ConnectorCreate, ConnectorKind } from '@werkwissen/shared';
import { useState } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type ConsentBody, useConnect, useConsent } from '../../api/connectors.ts';
import { ApiError } from '../../api/http.ts';
import { applyFieldErrors, errorMessage, InputField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { fileTypesOf, LoginFields, ScheduleFields } from './connector-fields.tsx';

interface Fields {
  kind: ConnectorKind;
  name: string;
  url: string;
  userName: string;
  password: string;
  driveId: string;
  folderId: string;
  folder: string;
  fileTypes: string;
  intervalMinutes: string;
}

const FIELDS = [
  'name',
  'url',
  'userName',
  'password',
  'driveId',
  'folderId',
  'folder',
  'fileTypes',
  'intervalMinutes',
];
const KINDS: ConnectorKind[] = ['webdav', 'microsoft365', 'googledrive'];
/** The texts of the kinds connected by consent (`connectors.<ns>.*`). */
const CONSENT_TEXTS = { microsoft365: 'connectors.microsoft', googledrive: 'connectors.google' } as const;

/**
 * Connects a folder. WebDAV: the server tries it before it stores it, and says why when it cannot read it.
 * Microsoft 365 and Google Drive: the drive and folder are chosen here, then the browser leaves for the vendor's
 * consent page and comes back to the kind's callback page, which ends the connection.
 */
export default function ConnectDialog({ divisionId, onClose }: { divisionId: string; onClose(): void }) {
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Fields>({
    defaultValues: {
      kind: 'webdav',
      name: '',
      url: '',
      userName: '',
      password: '',
      driveId: '',
      folderId: '',
      folder: '',
      fileTypes: '',
      intervalMinutes: '60',
    },
  });
  /** Field errors go to their fields; the refusal of the source (or of a missing app) above the form. */
  const claimError = (code: string) => (error: unknown) => {
    if (applyFieldErrors(error, form.setError, FIELDS)) return true;
    if (error instanceof ApiError && error.code === code) {
      setRefusal(errorMessage(error, t));
      return true;
    }
    return false;
  };
  const connect = useConnect(divisionId, {
    onSuccess: onClose,
    claimError: claimError('CONNECTOR_UNREACHABLE'),
  });
  const kind = form.watch('kind');
  const consent = useConsent(divisionId, {
    claimError: claimError(kind === 'googledrive' ? 'GOOGLE_APP_UNCONFIGURED' : 'MICROSOFT_APP_UNCONFIGURED'),
  });
  const ns = kind === 'webdav' ? null : CONSENT_TEXTS[kind];
  const submit = form.handleSubmit((v) => {
    setRefusal(null);
    if (v.kind !== 'webdav') {
      const body: ConsentBody = {
        name: v.name,
        driveId: v.driveId.trim(),
        ...(v.kind === 'googledrive' ? { folderId: v.folderId.trim() } : {}),
        folder: v.folder,
        fileTypes: fileTypesOf(v.fileTypes),
        intervalMinutes: Number(v.intervalMinutes),
      };
      consent.mutate({ kind: v.kind, body });
      return;
    }
    const body: ConnectorCreate = {
      kind: 'webdav',
      name: v.name,
      url: v.url.trim(),
      userName: v.userName,
      password: v.password,
      folder: v.folder,
      fileTypes: fileTypesOf(v.fileTypes),
      intervalMinutes: Number(v.intervalMinutes),
    };
    connect.mutate(body);
  });
  const err = (name: keyof Fields) => form.formState.errors[name]?.message;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t(ns ? `${ns}.dialogTitle` : 'connectors.dialogTitle')}
      intro={t(ns ? `${ns}.dialogHint` : 'connectors.dialogHint')}
      formId="connect-form"
      submitLabel={t(ns ? `${ns}.consent` : 'connectors.connect')}
      pending={connect.isPending || consent.isPending}
    >
      <Stack component="form" id="connect-form" noValidate spacing={2.5} sx={{ mt: 2 }} onSubmit={submit}>
        {refusal && <Alert severity="error">{refusal}</Alert>}
        <SelectField
          id="connect-kind"
          label={t('connectors.fields.kind')}
          value={form.watch('kind')}
          onChange={(v) => {
            setRefusal(null);
            form.clearErrors();
            form.setValue('kind', KINDS.find((k) => k === v) ?? 'webdav');
          }}
          options={KINDS.map((k) => ({ value: k, label: t(`connectors.kinds.${k}`) }))}
          size="medium"
        />
        <InputField label={t('connectors.fields.name')} errorKey={err('name')} {...form.register('name')} />
        {ns ? (
          <InputField
            label={t(`${ns}.driveId`)}
            helperText={t(`${ns}.driveIdHelp`)}
            errorKey={err('driveId')}
            inputProps={{ dir: 'ltr' }}
            {...form.register('driveId')}
          />
        ) : (
          <WebDavFields form={form} />
        )}
        {kind === 'googledrive' && (
          <InputField
            label={t('connectors.google.folderId')}
            helperText={t('connectors.google.folderIdHelp')}
            errorKey={err('folderId')}
            inputProps={{ dir: 'ltr' }}
            {...form.register('folderId')}
          />
        )}
        <InputField
          label={t('connectors.fields.folder')}
          helperText={t(ns ? `${ns}.folderHelp` : 'connectors.fields.folderHelp')}
          errorKey={err('folder')}
          {...form.register('folder')}
        />
        <ScheduleFields
          id="connect-interval"
          fileTypes={form.register('fileTypes')}
          fileTypesError={err('fileTypes')}
          interval={form.watch('intervalMinutes')}
          onInterval={(v) => form.setValue('intervalMinutes', v)}
        />
      </Stack>
    </FormDialog>
  );
}

/** The address and login of a WebDAV server. */
function WebDavFields({ form }: { form: UseFormReturn<Fields> }) {
  const { t } = useTranslation();
  const err = (name: keyof Fields) => form.formState.errors[name]?.message;
  return (
    <>
      <InputField
        label={t('connectors.fields.url')}
        helperText={t('connectors.fields.urlHelp')}
        errorKey={err('url')}
        inputProps={{ dir: 'ltr' }}
        {...form.register('url')}
      />
      <LoginFields
        userName={form.register('userName')}
        userNameError={err('userName')}
        password={form.register('password')}
        passwordError={err('password')}
      />
    </>
  );
}
