import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A dialog around one form: title, an optional introduction, the form (`children`, a `<form id={formId}>`), Cancel
 * and the submit button, which submits that form from outside it (disabled while `pending`).
 */
export function FormDialog({
  open,
  onClose,
  title,
  intro,
  formId,
  submitLabel,
  pending = false,
  maxWidth = 'sm',
  children,
}: {
  open: boolean;
  onClose(): void;
  title: string;
  intro?: string;
  formId: string;
  submitLabel: string;
  pending?: boolean;
  maxWidth?: 'xs' | 'sm';
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth={maxWidth}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {intro && <DialogContentText>{intro}</DialogContentText>}
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={pending}>
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
