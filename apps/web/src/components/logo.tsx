import { useConfig } from '../app/config-context.tsx';

/** The logo, 100 px wide, from the public assets path of our own host (spec section 7). */
export function Logo() {
  const config = useConfig();
  return <img src="/assets/img/logo.png" width={100} alt={config.appTitle} style={{ display: 'block' }} />;
}
