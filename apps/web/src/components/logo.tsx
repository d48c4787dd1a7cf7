import { useConfig } from '../app/config-context.tsx';

/**
 * The logo, 100 px wide: the operator's uploaded one, else the built-in one from the public assets path of our own
 * host (spec section 7).
 */
export function Logo() {
  const config = useConfig();
  return <img src={config.logoUrl} width={100} alt={config.appTitle} style={{ display: 'block' }} />;
}
