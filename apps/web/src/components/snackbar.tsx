import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useState } from 'react';

export type Severity = 'success' | 'error' | 'info' | 'warning';
export interface SnackbarMessage {
  message: string;
  severity: Severity;
  key: number;
}

// Fetched with the first message, so that pages which never show one do not download it.
const SnackbarView = lazy(() => import('./snackbar-view.tsx'));
const SnackbarContext = createContext<(message: string, severity?: Severity) => void>(() => {});

/** Success and failure messages at the bottom of the screen (design/ui.md). */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SnackbarMessage | null>(null);
  const [used, setUsed] = useState(false);
  const show = useCallback((message: string, severity: Severity = 'success') => {
    setUsed(true);
    setState({ message, severity, key: Date.now() });
  }, []);
  return (
    <SnackbarContext.Provider value={show}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <SnackbarView state={state} onClose={() => setState(null)} />
        </Suspense>
      )}
    </SnackbarContext.Provider>
  );
}

export function useSnackbar() {
  return useContext(SnackbarContext);
}
