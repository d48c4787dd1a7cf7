import type { PublicConfig } from '@werkwissen/shared';
import { createContext, useContext } from 'react';

export const ConfigContext = createContext<PublicConfig | null>(null);

/** The public configuration, loaded from GET /api/v1/config before the app renders. */
export function useConfig(): PublicConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigContext');
  return config;
}
