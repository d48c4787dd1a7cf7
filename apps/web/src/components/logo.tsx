import { useConfig } from '../app/config-context.tsx';

/** The height of the compact mark: the logo's start, cropped square (our logo begins with its "W" tile). */
const MARK = 28;

/**
 * The logo, 100 px wide: the operator's uploaded one, else the built-in one from the public assets path of our own
 * host (spec section 7); `src` and `alt` put another in its place (the company's, `ShellLogo`). `compact`: only its
 * mark, for the collapsed navigation. The crop starts at the image's left in every language: the mark is where the
 * picture begins, not where the text does (an inline style, which the right-to-left style plugin leaves alone).
 */
export function Logo({ compact = false, src, alt }: { compact?: boolean; src?: string; alt?: string }) {
  const config = useConfig();
  const image = src ?? config.logoUrl;
  const name = alt ?? config.appTitle;
  if (compact)
    return (
      <img
        src={image}
        width={MARK}
        height={MARK}
        alt={name}
        data-testid="logo-mark"
        style={{ display: 'block', objectFit: 'cover', objectPosition: 'left center' }}
      />
    );
  return <img src={image} width={100} alt={name} style={{ display: 'block' }} />;
}
