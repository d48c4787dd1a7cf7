import { useCompanyBranding } from '../api/company-branding.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { Logo } from './logo.tsx';

/**
 * The signed-in shell's logo: the company's own for its users (issue 17), named by the company, else the product's
 * (`Logo`). Only inside the default layout, whose query client reads the company's branding.
 */
export function ShellLogo({ compact = false }: { compact?: boolean }) {
  const companyName = useAuth().session?.userData.companyName;
  const logo = useCompanyBranding().data?.logo;
  if (!logo) return <Logo compact={compact} />;
  return <Logo compact={compact} src={logo.url} alt={companyName ?? undefined} />;
}
