import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './form.tsx';
import { useSnackbar } from './snackbar.tsx';

/**
 * Asks before a destructive action, runs it, and reports the outcome in the snackbar. Open while `open` is true;
 * `onClose` is called after the action, whether it succeeded or not.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  successMessage,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  successMessage: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const confirm = async () => {
    try {
      await onConfirm();
      snackbar(successMessage);
    } catch (error) {
      snackbar(errorMessage(error, t), 'error');
    } finally {
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button color="error" variant="contained" onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
