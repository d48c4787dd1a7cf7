import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import type { DataManager } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteDataManager } from '../../api/admin-people.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';

/**
 * Deletes a data manager with their company and all its data once the company name or the e-mail is typed (the
 * server checks it too).
 */
export function DeleteDataManagerDialog({
  dataManager,
  onClose,
  onDeleted,
}: {
  dataManager: DataManager | null;
  onClose(): void;
  onDeleted(): void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const remove = useDeleteDataManager({
    onSuccess: onDeleted,
    claimError: (error) => {
      if (!(error instanceof ApiError && error.code === 'CONFIRMATION_MISMATCH')) return false;
      setFailure(errorMessage(error, t));
      return true;
    },
  });
  const names = [dataManager?.email, dataManager?.companyName]
    .filter((n): n is string => Boolean(n))
    .map((n) => n.trim().toLowerCase());
  const matches = names.includes(typed.trim().toLowerCase());
  const close = () => {
    setTyped('');
    setFailure(null);
    onClose();
  };
  return (
    <Dialog open={dataManager !== null} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>{t('admin.users.deleteTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={4}>
          <DialogContentText>
            {t('admin.users.deleteText', {
              email: dataManager?.email,
              company: dataManager?.companyName ?? t('admin.companies.unnamed'),
            })}
          </DialogContentText>
          <TextField
            autoFocus
            label={t('admin.users.deleteConfirm')}
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setFailure(null);
            }}
            error={failure !== null}
            helperText={failure ?? ' '}
            slotProps={{ htmlInput: { dir: 'auto', autoComplete: 'off' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button
          color="error"
          variant="contained"
          disabled={!matches || remove.isPending}
          onClick={() => remove.mutate({ id: dataManager!.id, confirmation: typed.trim() })}
        >
          {t('admin.users.deleteForever')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
