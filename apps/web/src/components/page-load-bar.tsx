import { LinearProgress } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nextProgress, PAGE_LOAD } from './page-load-bar.ts';

interface LoadState {
  begin(): void;
  end(): void;
}

const PageLoadContext = createContext<LoadState>({ begin() {}, end() {} });

/** The bar at the top of the window while a page is loading. */
export function PageLoadProvider({ children }: { children: ReactNode }) {
  const [progress, setProgress] = useState<number | null>(null);
  const pending = useRef(0);
  const timers = useRef<{ tick?: ReturnType<typeof setInterval>; hide?: ReturnType<typeof setTimeout> }>({});

  const begin = useCallback(() => {
    pending.current++;
    if (pending.current > 1) return;
    clearTimeout(timers.current.hide);
    setProgress(PAGE_LOAD.start);
    timers.current.tick = setInterval(
      () => setProgress((p) => nextProgress(p ?? PAGE_LOAD.start)),
      PAGE_LOAD.tickMs,
    );
  }, []);

  const end = useCallback(() => {
    pending.current = Math.max(0, pending.current - 1);
    if (pending.current > 0) return;
    clearInterval(timers.current.tick);
    setProgress(100);
    timers.current.hide = setTimeout(() => setProgress(null), PAGE_LOAD.hideAfterMs);
  }, []);

  useEffect(
    () => () => {
      clearInterval(timers.current.tick);
      clearTimeout(timers.current.hide);
    },
    [],
  );

  return (
    <PageLoadContext.Provider value={{ begin, end }}>
      {progress !== null && <PageLoadBar value={progress} />}
      {children}
    </PageLoadContext.Provider>
  );
}

function PageLoadBar({ value }: { value: number }) {
  const { t } = useTranslation();
  return (
    <LinearProgress
      variant="determinate"
      value={value}
      aria-label={t('shell.loading')}
      data-testid="page-load-bar"
      sx={{ position: 'fixed', top: 0, insetInlineStart: 0, width: '100%', zIndex: 2000, height: 3 }}
    />
  );
}

/** Rendered as a Suspense fallback: the bar runs while the lazily loaded page arrives. */
export function PageLoading() {
  const { begin, end } = useContext(PageLoadContext);
  useEffect(() => {
    begin();
    return end;
  }, [begin, end]);
  return null;
}
