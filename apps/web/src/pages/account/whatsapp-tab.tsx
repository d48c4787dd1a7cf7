import { Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { IconBrandWhatsapp, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteWhatsAppConnection, useWhatsAppConnection } from '../../api/whatsapp.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { WhatsAppConnectDialog } from './whatsapp-connect-dialog.tsx';

/**
 * The company's WhatsApp number (account settings, tab `whatsapp`: `/account-settings/whatsapp`, the guided tour's
 * step 4): whether one is connected, the connect dialog, and disconnecting.
 */
export function WhatsAppTab() {
  const { t } = useTranslation();
  const connection = useWhatsAppConnection();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const remove = useDeleteWhatsAppConnection({ onSettled: () => setRemoving(false) });
  const data = connection.data;

  return (
    <Card component="section" aria-labelledby="whatsapp-title">
      <CardContent>
        <Stack spacing={4}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <IconBrandWhatsapp size={28} aria-hidden />
            <Typography id="whatsapp-title" variant="h6" component="h2">
              {t('whatsapp.title')}
            </Typography>
          </Stack>
          <Typography color="text.secondary">{t('whatsapp.intro')}</Typography>
          {!data ? (
            <CircularProgress aria-label={t('common.loading')} />
          ) : (
            <>
              <Typography data-testid="whatsapp-status" sx={{ fontWeight: 500 }}>
                {data.connected
                  ? t('whatsapp.connected', { id: data.phoneNumberId })
                  : t('whatsapp.notConnected')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('whatsapp.help.contacts')}
              </Typography>
              <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 2 }}>
                <Button
                  variant="contained"
                  data-tour="whatsapp"
                  startIcon={<IconPlugConnected size={20} />}
                  onClick={() => setEditing(true)}
                >
                  {t(data.connected ? 'whatsapp.edit' : 'whatsapp.connect')}
                </Button>
                {data.connected && (
                  <Button
                    color="error"
                    variant="outlined"
                    startIcon={<IconTrash size={20} />}
                    onClick={() => setRemoving(true)}
                  >
                    {t('whatsapp.disconnect')}
                  </Button>
                )}
              </Stack>
              {editing && <WhatsAppConnectDialog connection={data} onClose={() => setEditing(false)} />}
            </>
          )}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={removing}
        title={t('whatsapp.disconnect')}
        text={t('whatsapp.disconnectConfirm')}
        confirmLabel={t('whatsapp.disconnect')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setRemoving(false)}
      />
    </Card>
  );
}
