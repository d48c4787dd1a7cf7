import { Alert, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import type { LinkedIdentity } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { useIdentities, useStartLink, useUnlinkIdentity } from '../../api/sign-in-providers.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFormat } from '../../components/format.ts';

/**
 * The provider accounts linked to the user (sign in with them instead of the password), with unlink, and a "Link ..."
 * button per provider the operator offers. Linking leaves for the provider and comes back here with `?linked=1` or
 * `?oidcError=<code>`.
 */
export function IdentitiesCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const location = useLocation();
  const [params] = useSearchParams();
  const identities = useIdentities();
  const link = useStartLink();
  const [unlinking, setUnlinking] = useState<LinkedIdentity | null>(null);
  const unlink = useUnlinkIdentity({ onSettled: () => setUnlinking(null) });
  const error = params.get('oidcError');
  const data = identities.data;
  // Nothing to show where no provider is offered and none is linked.
  if (data && data.items.length === 0 && data.linkable.length === 0) return null;
  return (
    <Card data-testid="identities-card">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('account.identities.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {t('account.identities.description')}
        </Typography>
        {!data ? (
          <Skeleton variant="rounded" height={56} />
        ) : (
          <Stack spacing={4} sx={{ maxWidth: 560 }}>
            {params.get('linked') && <Alert severity="success">{t('account.identities.linked')}</Alert>}
            {error && (
              <Alert severity="error" role="alert">
                {t([`errors.${error}`, 'errors.OIDC_SIGN_IN_FAILED'])}
              </Alert>
            )}
            {data.items.length === 0 && <Typography>{t('account.identities.none')}</Typography>}
            {data.items.map((identity) => (
              <Stack
                key={identity.id}
                direction="row"
                spacing={3}
                sx={{ alignItems: 'center', justifyContent: 'space-between' }}
              >
                <div>
                  <Typography sx={{ fontWeight: 500 }}>
                    {identity.providerName}
                    {identity.email ? ` · ${identity.email}` : ''}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('account.identities.linkedOn', { date: format.dateTime(identity.createdAt) })}
                  </Typography>
                </div>
                <Button color="error" onClick={() => setUnlinking(identity)}>
                  {t('account.identities.unlink')}
                </Button>
              </Stack>
            ))}
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {data.linkable.map((provider) => (
                <Button
                  key={provider.id}
                  variant="outlined"
                  disabled={link.isPending}
                  onClick={() => link.mutate({ providerId: provider.id, to: location.pathname })}
                >
                  {t('account.identities.link', { name: provider.name })}
                </Button>
              ))}
            </Stack>
          </Stack>
        )}
      </CardContent>
      <ConfirmDialog
        open={unlinking !== null}
        title={t('account.identities.unlinkTitle', { name: unlinking?.providerName ?? '' })}
        text={t('account.identities.unlinkBody')}
        confirmLabel={t('account.identities.unlink')}
        pending={unlink.isPending}
        onConfirm={() => unlinking && unlink.mutate(unlinking.id)}
        onClose={() => setUnlinking(null)}
      />
    </Card>
  );
}
