import { Alert, Snackbar } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';

type Severity = 'success' | 'error' | 'info' | 'warning';
const SnackbarContext = createContext<(message: string, severity?: Severity) => void>(() => {});

/** Success and failure messages at the bottom of the screen (design/ui.md). */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ message: string; severity: Severity; key: number } | null>(null);
  const show = useCallback((message: string, severity: Severity = 'success') => {
    setState({ message, severity, key: Date.now() });
  }, []);
  return (
    <SnackbarContext.Provider value={show}>
      {children}
      <Snackbar
        key={state?.key}
        open={state !== null}
        autoHideDuration={5000}
        onClose={(_e, reason) => reason !== 'clickaway' && setState(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {state ? (
          <Alert severity={state.severity} variant="filled" onClose={() => setState(null)} role="status">
            {state.message}
          </Alert>
        ) : undefined}
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar() {
  return useContext(SnackbarContext);
}
