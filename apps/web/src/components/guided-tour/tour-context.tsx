import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

interface TourControls {
  /** Whether the user opened the tour from the help menu in this visit (also a completed or skipped one). */
  reopened: boolean;
  reopen(): void;
  /** Hides the tour until the next visit or the help menu (after skipping it). */
  hide(): void;
  hidden: boolean;
  /** Whether the panel is open; folded, the navbar keeps a small entry to it. */
  expanded: boolean;
  setExpanded(expanded: boolean): void;
}

const TourContext = createContext<TourControls | null>(null);

/** Holds what the help menu, the navbar's entry and the tour's panel share in this visit. */
export function TourProvider({ children }: { children: ReactNode }) {
  const [reopened, setReopened] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [expanded, setExpanded] = useState(true);
  const value = useMemo(
    () => ({
      reopened,
      hidden,
      expanded,
      setExpanded,
      reopen: () => {
        setReopened(true);
        setHidden(false);
        setExpanded(true);
      },
      hide: () => {
        setReopened(false);
        setHidden(true);
      },
    }),
    [reopened, hidden, expanded],
  );
  return <TourContext.Provider value={value}>{children}</TourContext.Provider>;
}

export function useTourControls(): TourControls {
  const controls = useContext(TourContext);
  if (!controls) throw new Error('useTourControls outside TourProvider');
  return controls;
}
