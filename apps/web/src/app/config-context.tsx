import type { PublicConfig } from '@werkwissen/shared';
import { createContext, useContext } from 'react';

export const ConfigContext = createContext<PublicConfig | null>(null);

/** The public configuration, loaded from GET /api/v1/config before the app renders. */
export function useConfig(): PublicConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigContext');
  return config;
}

/** Loads the public configuration again (after the operator changed the branding), so that it shows at once. */
export const ConfigReloadContext = createContext<() => Promise<void>>(async () => {});

export function useReloadConfig(): () => Promise<void> {
  return useContext(ConfigReloadContext);
}
