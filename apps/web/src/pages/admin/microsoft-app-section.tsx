import { Alert, Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { MicrosoftApp } from '@werkwissen/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useMicrosoftApp, useSaveMicrosoftApp } from '../../api/microsoft-app.ts';
import { applyFieldErrors, errorMessage, InputField, PasswordField } from '../../components/form.tsx';

interface Fields {
  clientId: string;
  clientSecret: string;
  tenant: string;
  loginUrl: string;
  graphUrl: string;
}
const FIELDS = ['clientId', 'clientSecret', 'tenant', 'loginUrl', 'graphUrl'];

/**
 * The Entra app Microsoft 365 connectors consent to (system settings, general tab): the redirect URI to register in
 * it, its client id and secret (sealed on the server, never shown again), the tenant and the endpoints.
 */
export function MicrosoftAppSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const app = useMicrosoftApp();
  return (
    <Stack spacing={3} data-testid="microsoft-app-settings">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          {t('admin.settings.microsoft.title')}
        </Typography>
        {app.data && (
          <Chip
            size="small"
            color={app.data.configured ? 'success' : 'default'}
            label={t(`admin.settings.microsoft.${app.data.configured ? 'configured' : 'notConfigured'}`)}
          />
        )}
      </Stack>
      <Typography color="text.secondary">{t('admin.settings.microsoft.intro')}</Typography>
      {app.isError && <Alert severity="error">{errorMessage(app.error, t)}</Alert>}
      {app.data ? (
        <MicrosoftAppForm key={app.data.updatedAt ?? 'new'} app={app.data} canEdit={canEdit} />
      ) : (
        !app.isError && <Skeleton variant="rounded" height={160} />
      )}
    </Stack>
  );
}

function MicrosoftAppForm({ app, canEdit }: { app: MicrosoftApp; canEdit: boolean }) {
  const { t } = useTranslation();
  const form = useForm<Fields>({
    defaultValues: {
      clientId: app.clientId,
      clientSecret: '',
      tenant: app.tenant,
      loginUrl: app.loginUrl,
      graphUrl: app.graphUrl,
    },
  });
  const save = useSaveMicrosoftApp({ claimError: (error) => applyFieldErrors(error, form.setError, FIELDS) });
  const err = (name: keyof Fields) => form.formState.errors[name]?.message;
  const submit = form.handleSubmit((v) =>
    save.mutate({ ...v, clientId: v.clientId.trim(), clientSecret: v.clientSecret.trim() }),
  );
  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={submit}>
      <Typography color="text.secondary">
        {t('admin.settings.microsoft.redirectUri')}{' '}
        <Box component="code" dir="ltr" sx={{ wordBreak: 'break-all' }}>
          {app.redirectUri}
        </Box>
      </Typography>
      <InputField
        label={t('admin.settings.microsoft.clientId')}
        errorKey={err('clientId')}
        disabled={!canEdit}
        inputProps={{ dir: 'ltr' }}
        {...form.register('clientId')}
      />
      <PasswordField
        label={t('admin.settings.microsoft.clientSecret')}
        helperText={app.clientSecretSet ? t('admin.settings.microsoft.clientSecretKeep') : undefined}
        errorKey={err('clientSecret')}
        disabled={!canEdit}
        autoComplete="new-password"
        {...form.register('clientSecret')}
      />
      <InputField
        label={t('admin.settings.microsoft.tenant')}
        helperText={t('admin.settings.microsoft.tenantHelp')}
        errorKey={err('tenant')}
        disabled={!canEdit}
        inputProps={{ dir: 'ltr' }}
        {...form.register('tenant')}
      />
      <InputField
        label={t('admin.settings.microsoft.loginUrl')}
        errorKey={err('loginUrl')}
        disabled={!canEdit}
        inputProps={{ dir: 'ltr' }}
        {...form.register('loginUrl')}
      />
      <InputField
        label={t('admin.settings.microsoft.graphUrl')}
        errorKey={err('graphUrl')}
        disabled={!canEdit}
        inputProps={{ dir: 'ltr' }}
        {...form.register('graphUrl')}
      />
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
