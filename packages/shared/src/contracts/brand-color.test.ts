import { describe, expect, it } from 'vitest';
import { BRAND_COLOR_MIN_CONTRAST, contrastRatio } from './company-branding.contract.ts';

describe('the contrast of a company colour', () => {
  it('is the WCAG ratio of the two colours, either way round', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#ffffff', '#767676')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#767676', '#ffffff')).toBe(contrastRatio('#ffffff', '#767676'));
  });

  it('lets dark colours pass and light ones not', () => {
    expect(contrastRatio('#1f5fa8', '#ffffff')).toBeGreaterThanOrEqual(BRAND_COLOR_MIN_CONTRAST);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(BRAND_COLOR_MIN_CONTRAST);
    expect(contrastRatio('#ffcc00', '#ffffff')).toBeLessThan(BRAND_COLOR_MIN_CONTRAST);
  });
});
