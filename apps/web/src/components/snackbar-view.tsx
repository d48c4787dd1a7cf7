import { Alert, Snackbar } from '@mui/material';
import type { SnackbarMessage } from './snackbar.tsx';

export default function SnackbarView({ state, onClose }: { state: SnackbarMessage | null; onClose(): void }) {
  return (
    <Snackbar
      key={state?.key}
      open={state !== null}
      autoHideDuration={5000}
      onClose={(_e, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {state ? (
        <Alert severity={state.severity} variant="filled" onClose={onClose} role="status">
          {state.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
