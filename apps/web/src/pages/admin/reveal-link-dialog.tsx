import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { type FormEvent, type MouseEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevealEmailLink } from '../../api/emails.ts';
import { errorMessage, InputField } from '../../components/form.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';

/**
 * The Administrator's deliberate reveal of a mail's single-use link (a mail that could not be sent): a current code
 * of their authenticator app, then the link to copy. Closing forgets it.
 */
export function RevealLinkDialog({
  open,
  emailId,
  recipient,
  onClose,
}: {
  open: boolean;
  emailId: string;
  recipient: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const reveal = useRevealEmailLink({
    onSuccess: (data) => setLink(data.link),
    claimError: (error) => {
      setFieldError(errorMessage(error, t));
      return true;
    },
  });
  const close = () => {
    setCode('');
    setFieldError(null);
    setLink(null);
    onClose();
  };
  const submit = (event: FormEvent | MouseEvent) => {
    event.preventDefault();
    setFieldError(null);
    reveal.mutate({ emailId, code: code.replace(/\s/g, '') });
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link!);
      snackbar(t('admin.emails.linkCopied'));
    } catch {
      snackbar(t('chat.share.copyFailed'), 'warning');
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>{t('admin.emails.revealTitle')}</DialogTitle>
      <DialogContent>
        {link ? (
          <Stack spacing={3}>
            <DialogContentText>{t('admin.emails.revealedIntro', { email: recipient })}</DialogContentText>
            <TextField
              value={link}
              label={t('admin.emails.revealTitle')}
              fullWidth
              multiline
              slotProps={{ htmlInput: { readOnly: true, dir: 'ltr', 'data-testid': 'revealed-link' } }}
              onFocus={(event) => event.target.select()}
            />
          </Stack>
        ) : (
          <Stack component="form" spacing={3} noValidate onSubmit={submit}>
            <DialogContentText>{t('admin.emails.revealIntro', { email: recipient })}</DialogContentText>
            {fieldError && (
              <Alert severity="error" role="alert">
                {fieldError}
              </Alert>
            )}
            <InputField
              name="reveal-code"
              label={t('auth.twoFactor.code')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              autoFocus
              inputProps={{ inputMode: 'numeric', dir: 'ltr' }}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t(link ? 'common.close' : 'common.cancel')}</Button>
        {link ? (
          <Button variant="contained" onClick={() => void copy()}>
            {t('admin.emails.copyLink')}
          </Button>
        ) : (
          <Button variant="contained" disabled={!code.trim() || reveal.isPending} onClick={submit}>
            {t('admin.emails.revealLink')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
