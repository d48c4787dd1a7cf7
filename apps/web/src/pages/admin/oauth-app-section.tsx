import { Alert, Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  type AppKind,
  type ConnectorApp,
  type ConnectorAppBody,
  useConnectorApp,
  useSaveConnectorApp,
} from '../../api/connector-apps.ts';
import { applyFieldErrors, errorMessage, InputField, PasswordField } from '../../components/form.tsx';

/** Each app's settings beside its client id and secret (`admin.settings.<kind>.<name>`, a help text where named). */
const SETTINGS: Record<AppKind, Array<{ name: string; help?: string }>> = {
  microsoft: [{ name: 'tenant', help: 'tenantHelp' }, { name: 'loginUrl' }, { name: 'graphUrl' }],
  google: [{ name: 'authUrl' }, { name: 'tokenUrl' }, { name: 'driveUrl' }],
};

/** The client id field's label: Entra calls it the application (client) ID. */
const CLIENT_ID_LABEL: Record<AppKind, string> = {
  microsoft: 'admin.settings.microsoft.clientId',
  google: 'admin.settings.google.clientId',
};

/**
 * An OAuth app connectors consent to (system settings, general tab): Microsoft's Entra app or Google's OAuth client,
 * with the redirect URI to register in it, its client id and secret (sealed on the server, never shown again) and its
 * endpoints.
 */
export function OAuthAppSection({ kind, canEdit }: { kind: AppKind; canEdit: boolean }) {
  const { t } = useTranslation();
  const app = useConnectorApp(kind);
  return (
    <Stack spacing={3} data-testid={`${kind}-app-settings`}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          {t(`admin.settings.${kind}.title`)}
        </Typography>
        {app.data && (
          <Chip
            size="small"
            color={app.data.configured ? 'success' : 'default'}
            label={t(`admin.settings.${kind}.${app.data.configured ? 'configured' : 'notConfigured'}`)}
          />
        )}
      </Stack>
      <Typography color="text.secondary">{t(`admin.settings.${kind}.intro`)}</Typography>
      {app.isError && <Alert severity="error">{errorMessage(app.error, t)}</Alert>}
      {app.data ? (
        <AppForm key={app.data.updatedAt ?? 'new'} kind={kind} app={app.data} canEdit={canEdit} />
      ) : (
        !app.isError && <Skeleton variant="rounded" height={160} />
      )}
    </Stack>
  );
}

function AppForm({ kind, app, canEdit }: { kind: AppKind; app: ConnectorApp; canEdit: boolean }) {
  const { t } = useTranslation();
  const settings = SETTINGS[kind];
  const stored = app as unknown as Record<string, string>;
  const form = useForm<Record<string, string>>({
    defaultValues: {
      clientId: app.clientId,
      clientSecret: '',
      ...Object.fromEntries(settings.map(({ name }) => [name, stored[name] ?? ''])),
    },
  });
  const fields = ['clientId', 'clientSecret', ...settings.map((s) => s.name)];
  const save = useSaveConnectorApp(kind, {
    claimError: (error) => applyFieldErrors(error, form.setError, fields),
  });
  const err = (name: string) => form.formState.errors[name]?.message;
  const submit = form.handleSubmit((v) =>
    save.mutate({
      ...v,
      clientId: (v.clientId ?? '').trim(),
      clientSecret: (v.clientSecret ?? '').trim(),
    } as ConnectorAppBody),
  );
  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={submit}>
      <Typography color="text.secondary">
        {t(`admin.settings.${kind}.redirectUri`)}{' '}
        <Box component="code" dir="ltr" sx={{ wordBreak: 'break-all' }}>
          {app.redirectUri}
        </Box>
      </Typography>
      <InputField
        label={t(CLIENT_ID_LABEL[kind])}
        errorKey={err('clientId')}
        disabled={!canEdit}
        inputProps={{ dir: 'ltr' }}
        {...form.register('clientId')}
      />
      <PasswordField
        label={t(`admin.settings.${kind}.clientSecret`)}
        helperText={app.clientSecretSet ? t(`admin.settings.${kind}.clientSecretKeep`) : undefined}
        errorKey={err('clientSecret')}
        disabled={!canEdit}
        autoComplete="new-password"
        {...form.register('clientSecret')}
      />
      {settings.map(({ name, help }) => (
        <InputField
          key={name}
          label={t(`admin.settings.${kind}.${name}`)}
          helperText={help ? t(`admin.settings.${kind}.${help}`) : undefined}
          errorKey={err(name)}
          disabled={!canEdit}
          inputProps={{ dir: 'ltr' }}
          {...form.register(name)}
        />
      ))}
      {canEdit && (
        <Box>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('common.save')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
