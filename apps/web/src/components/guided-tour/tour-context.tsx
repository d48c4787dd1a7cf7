import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

interface TourControls {
  /** Whether the user opened the tour from the help menu in this visit (also a completed or skipped one). */
  reopened: boolean;
  reopen(): void;
  /** Hides the tour's panel until the next visit or the help menu. */
  hide(): void;
  hidden: boolean;
}

const TourContext = createContext<TourControls | null>(null);

/** Holds what the help menu and the tour's panel share in this visit. */
export function TourProvider({ children }: { children: ReactNode }) {
  const [reopened, setReopened] = useState(false);
  const [hidden, setHidden] = useState(false);
  const value = useMemo(
    () => ({
      reopened,
      hidden,
      reopen: () => {
        setReopened(true);
        setHidden(false);
      },
      hide: () => {
        setReopened(false);
        setHidden(true);
      },
    }),
    [reopened, hidden],
  );
  return <TourContext.Provider value={value}>{children}</TourContext.Provider>;
}

export function useTourControls(): TourControls {
  const controls = useContext(TourContext);
  if (!controls) throw new Error('useTourControls outside TourProvider');
  return controls;
}
