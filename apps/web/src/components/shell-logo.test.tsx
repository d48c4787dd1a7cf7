import { screen } from '@testing-library/react';
import { companyBrandingContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signedInAs } from '../test/fixtures.ts';
import { renderWithApp, testConfig } from '../test/render.tsx';
import { ShellLogo } from './shell-logo.tsx';

afterEach(() => vi.unstubAllGlobals());

const LOGO_URL = '/api/v1/branding/companies/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d/logo?v=abc';

function serveBranding(logo: boolean) {
  fakeApi().on(companyBrandingContracts.get, () => ({
    logo: logo ? { url: LOGO_URL, width: 200, height: 80, updatedAt: '2026-01-01T00:00:00.000Z' } : null,
    brandColor: null,
    defaultDocument: null,
  }));
}

describe('the shell’s logo', () => {
  it('is the company’s own, named by the company, once it has one', async () => {
    signedInAs('DataManager');
    serveBranding(true);
    renderWithApp(<ShellLogo />);
    const image = (await screen.findByAltText('Firma')) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe(LOGO_URL);
    expect(image.getAttribute('width')).toBe('100');
  });

  it('is the product’s while the company has none', async () => {
    signedInAs('DataManager');
    serveBranding(false);
    renderWithApp(<ShellLogo />);
    const image = (await screen.findByAltText(testConfig.appTitle)) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe(testConfig.logoUrl);
  });
});
