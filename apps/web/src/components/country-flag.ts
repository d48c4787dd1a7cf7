/**
 * A country's flag as its two regional-indicator letters (🇩🇪), drawn by the system's emoji font: no image is
 * fetched from a flag CDN. Where the system has no flag glyphs (Windows), the two letters show, still the country.
 */
export function flagEmoji(isoCode: string): string {
  return String.fromCodePoint(...[...isoCode.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
