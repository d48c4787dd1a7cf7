import { useCompanyBranding } from '../api/company-branding.ts';
import { useConfig } from '../app/config-context.tsx';
import { useAuth } from '../auth/auth-context.tsx';

/** The height of the compact mark: the logo's start, cropped square (our logo begins with its "W" tile). */
const MARK = 28;

/**
 * The logo, 100 px wide: the company's own for its users (issue 17), else the operator's uploaded one, else the
 * built-in one from the public assets path of our own host (spec section 7). `compact`: only its mark, for the collapsed navigation. The crop starts at the image's left
 * in every language: the mark is where the picture begins, not where the text does (an inline style, which the
 * right-to-left style plugin leaves alone).
 */
export function Logo({ compact = false }: { compact?: boolean }) {
  const config = useConfig();
  const companyName = useAuth().session?.userData.companyName;
  const company = useCompanyBranding().data?.logo;
  const src = company?.url ?? config.logoUrl;
  const alt = (company && companyName) || config.appTitle;
  if (compact)
    return (
      <img
        src={src}
        width={MARK}
        height={MARK}
        alt={alt}
        data-testid="logo-mark"
        style={{ display: 'block', objectFit: 'cover', objectPosition: 'left center' }}
      />
    );
  return <img src={src} width={100} alt={alt} style={{ display: 'block' }} />;
}
