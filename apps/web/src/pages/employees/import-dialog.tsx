import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
} from '@mui/material';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { EMPLOYEE_CSV_COLUMNS, type EmployeeImportResult } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useImportEmployees } from '../../api/employees.ts';
import { ApiError } from '../../api/http.ts';
import { downloadCsv } from '../../components/csv.ts';
import { errorMessage } from '../../components/form.tsx';

/** Import from CSV: the browser reads the file, the server checks every row and reports what it rejected and why. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<EmployeeImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The outcome is told in the dialog, row by row: nothing goes to the snackbar.
  const importing = useImportEmployees({
    onSuccess: setResult,
    claimError: (error) => {
      const field = error instanceof ApiError ? error.fieldErrors[0]?.message : undefined;
      setFailure(field ?? errorMessage(error, t));
      return true;
    },
  });
  const busy = importing.isPending;

  const downloadTemplate = () => {
    downloadCsv(
      'employees-template.csv',
      [...EMPLOYEE_CSV_COLUMNS],
      [['anna@firma.example', 'Anna', 'Schmidt', '+49 151 2345678', 'de', '']],
    );
  };

  const upload = async (file: File) => {
    setFailure(null);
    setResult(null);
    importing.mutate(await file.text());
  };

  const close = () => {
    setResult(null);
    setFailure(null);
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>{t('pages.employees.import.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={4}>
          <DialogContentText>
            {t('pages.employees.import.intro', { columns: EMPLOYEE_CSV_COLUMNS.join(', ') })}
          </DialogContentText>
          <Stack direction="row" spacing={3} sx={{ flexWrap: 'wrap', gap: 2 }}>
            <Button variant="outlined" startIcon={<IconDownload size={18} />} onClick={downloadTemplate}>
              {t('pages.employees.import.template')}
            </Button>
            <Button
              variant="contained"
              component="label"
              startIcon={<IconUpload size={18} />}
              disabled={busy}
            >
              {t('pages.employees.import.choose')}
              <input
                hidden
                type="file"
                accept=".csv,text/csv"
                data-testid="import-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void upload(file);
                }}
              />
            </Button>
          </Stack>
          {failure && <Alert severity="error">{failure}</Alert>}
          {result && (
            <Alert severity={result.rejected.length === 0 ? 'success' : 'warning'} role="status">
              {t('pages.employees.import.summary', {
                created: result.created,
                rejected: result.rejected.length,
              })}
            </Alert>
          )}
          {result && result.rejected.length > 0 && (
            <List dense aria-label={t('pages.employees.import.rejected')}>
              {result.rejected.map((r) => (
                <ListItem key={r.row} disableGutters>
                  <ListItemText
                    primary={t('pages.employees.import.row', { row: r.row, email: r.email ?? '—' })}
                    secondary={r.errors.map((e) => e.message).join(' ')}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
