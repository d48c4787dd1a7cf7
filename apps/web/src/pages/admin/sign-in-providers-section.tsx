import { Alert, Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { SignInProvider } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteSignInProvider, useSignInProviders } from '../../api/sign-in-providers.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { SignInProviderDialog } from './sign-in-provider-dialog.tsx';

/**
 * The sign-in providers of the system settings (under the sign-up tab): Google and any OpenID Connect provider, the
 * redirect URI to register at each, and for the administrator adding, editing and deleting them.
 */
export function SignInProvidersSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const providers = useSignInProviders();
  const [editing, setEditing] = useState<{ provider: SignInProvider | null } | null>(null);
  const [deleting, setDeleting] = useState<SignInProvider | null>(null);
  const remove = useDeleteSignInProvider({ onSettled: () => setDeleting(null) });
  const data = providers.data;
  return (
    <Stack spacing={4} data-testid="sign-in-providers-settings">
      <Typography variant="h6" component="h2">
        {t('admin.settings.signIn.oidc.title')}
      </Typography>
      {providers.isError && <Alert severity="error">{errorMessage(providers.error, t)}</Alert>}
      {!data ? (
        <Skeleton variant="rounded" height={80} />
      ) : (
        <>
          <Typography color="text.secondary">
            {t('admin.settings.signIn.oidc.description')}{' '}
            <Box component="code" dir="ltr" sx={{ wordBreak: 'break-all' }}>
              {data.callbackUrl}
            </Box>
          </Typography>
          <Typography color="text.secondary">
            {t('admin.settings.signIn.oidc.googleOrigin')}{' '}
            <Box component="code" dir="ltr" data-testid="google-origin">
              {new URL(data.callbackUrl).origin}
            </Box>
          </Typography>
          {data.items.length === 0 && <Typography>{t('admin.settings.signIn.oidc.empty')}</Typography>}
          {data.items.map((provider) => (
            <Stack
              key={provider.id}
              direction="row"
              spacing={3}
              sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
            >
              <div>
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ fontWeight: 500 }}>{provider.name}</Typography>
                  <Chip size="small" label={t(`admin.settings.signIn.oidc.kinds.${provider.kind}`)} />
                  {!provider.enabled && (
                    <Chip size="small" variant="outlined" label={t('admin.settings.signIn.oidc.disabled')} />
                  )}
                </Stack>
                <Typography variant="body2" color="text.secondary" dir="ltr" sx={{ textAlign: 'start' }}>
                  {provider.issuer}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {provider.source === 'environment'
                    ? t('admin.settings.signIn.oidc.fromEnvironment')
                    : provider.areas.map((a) => t(`admin.settings.signIn.oidc.areas.${a}`)).join(', ')}
                </Typography>
              </div>
              {canEdit && (
                <Stack direction="row" spacing={1}>
                  <Button onClick={() => setEditing({ provider })}>{t('common.edit')}</Button>
                  {provider.source === 'settings' && (
                    <Button color="error" onClick={() => setDeleting(provider)}>
                      {t('common.delete')}
                    </Button>
                  )}
                </Stack>
              )}
            </Stack>
          ))}
          {canEdit && (
            <Button
              variant="outlined"
              onClick={() => setEditing({ provider: null })}
              sx={{ alignSelf: 'flex-start' }}
            >
              {t('admin.settings.signIn.oidc.add')}
            </Button>
          )}
        </>
      )}
      {editing && <SignInProviderDialog open provider={editing.provider} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.settings.signIn.oidc.delete')}
        text={t('admin.settings.signIn.oidc.deleteBody', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
