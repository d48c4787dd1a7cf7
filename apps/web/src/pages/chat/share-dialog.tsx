import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import { IconCopy, IconLink, IconLinkOff, IconRefresh } from '@tabler/icons-react';
import type { Chat } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useShareChat } from '../../api/chats.ts';
import { useSnackbar } from '../../components/snackbar.tsx';
import { WidgetSettings } from './widget-settings.tsx';

/** The address a share token opens: the public chat page of this installation. */
export const shareUrl = (token: string) => `${location.origin}/p/${token}`;

/**
 * A public chat's share link: create it, copy it, replace it with a new one (with the publish permission), or revoke
 * it (whoever manages the chat); with the publish permission also its website widget.
 */
export function ShareDialog({
  chat,
  canPublish,
  onClose,
}: {
  chat: Chat;
  canPublish: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const sharing = useShareChat();
  const busy = sharing.isPending;
  const url = chat.shareToken ? shareUrl(chat.shareToken) : null;

  const change = (action: 'share' | 'unshare') => sharing.mutate({ chatId: chat.id, action });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url!);
      snackbar(t('chat.share.copied'));
    } catch {
      snackbar(t('chat.share.copyFailed'), 'warning');
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('chat.share.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={4}>
          <DialogContentText>{t('chat.share.intro')}</DialogContentText>
          {url ? (
            <>
              <TextField
                label={t('chat.share.link')}
                value={url}
                fullWidth
                onFocus={(e) => e.target.select()}
                slotProps={{
                  htmlInput: { readOnly: true, dir: 'ltr' },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Tooltip title={t('chat.share.copy')}>
                          <IconButton
                            aria-label={t('chat.share.copy')}
                            onClick={() => void copy()}
                            edge="end"
                          >
                            <IconCopy size={20} />
                          </IconButton>
                        </Tooltip>
                      </InputAdornment>
                    ),
                  },
                }}
              />
              {canPublish && (
                <DialogContentText variant="body2">{t('chat.share.renewHelp')}</DialogContentText>
              )}
            </>
          ) : (
            <DialogContentText>{t('chat.share.none')}</DialogContentText>
          )}
          {canPublish && <WidgetSettings chat={chat} />}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 2 }}>
        {url && (
          <Button
            color="error"
            startIcon={<IconLinkOff size={18} />}
            disabled={busy}
            onClick={() => change('unshare')}
          >
            {t('chat.share.revoke')}
          </Button>
        )}
        {canPublish && (
          <Button
            startIcon={url ? <IconRefresh size={18} /> : <IconLink size={18} />}
            variant={url ? 'outlined' : 'contained'}
            disabled={busy}
            onClick={() => change('share')}
          >
            {t(url ? 'chat.share.renew' : 'chat.share.create')}
          </Button>
        )}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
