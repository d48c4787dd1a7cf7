import { Button } from '@mui/material';
import { IconShieldX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResetTwoFactor } from '../api/two-factor.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** Removes a user's second factor after a confirmation (a lost phone); they set it up again at their next sign-in. */
export function ResetTwoFactorButton({ userId, email }: { userId: string; email: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const reset = useResetTwoFactor({ onSettled: () => setOpen(false) });
  return (
    <>
      <Button startIcon={<IconShieldX size={18} />} variant="outlined" onClick={() => setOpen(true)}>
        {t('auth.twoFactor.reset')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('auth.twoFactor.reset')}
        text={t('auth.twoFactor.resetConfirm', { email })}
        confirmLabel={t('auth.twoFactor.resetAction')}
        pending={reset.isPending}
        onConfirm={() => reset.mutate(userId)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
