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
import type { EmployeeImportResult } from '@werkwissen/shared';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/http.ts';
import type { MutationCallbacks } from '../api/mutation.ts';
import { downloadCsv } from './csv.ts';
import { errorMessage } from './form.tsx';

interface Props {
  open: boolean;
  onClose(): void;
  title: string;
  /** What the file holds (the page names the columns with `importHeaders`). */
  intro: string;
  /** The file's columns, each with the locale key of its header (the shared contract's `*_CSV_COLUMNS`). */
  columns: Record<string, string>;
  /** The template's name and its one example row, in the order of `columns`. */
  template: { name: string; row: string[] };
  /** The resource module's import mutation hook. */
  useImport(callbacks: MutationCallbacks<string, EmployeeImportResult>): {
    mutate(csv: string): void;
    isPending: boolean;
  };
}

/**
 * The headers of an import file in the reader's language: what the template and the table's export write, and what
 * the server's import understands in every language.
 */
export const importHeaders = (columns: Record<string, string>, t: TFunction) =>
  Object.values(columns).map((key) => t(key));

/**
 * Import from CSV (employees, data managers): the browser reads the file, the server checks every row and reports
 * what it rejected and why.
 */
export function ImportDialog({ open, onClose, title, intro, columns, template, useImport }: Props) {
  const { t } = useTranslation();
  const [result, setResult] = useState<EmployeeImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The outcome is told in the dialog, row by row: nothing goes to the snackbar.
  const importing = useImport({
    onSuccess: setResult,
    claimError: (error) => {
      const field = error instanceof ApiError ? error.fieldErrors[0]?.message : undefined;
      setFailure(field ?? errorMessage(error, t));
      return true;
    },
  });
  const busy = importing.isPending;

  const downloadTemplate = () => {
    downloadCsv(template.name, importHeaders(columns, t), [template.row]);
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
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={4}>
          <DialogContentText>{intro}</DialogContentText>
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
