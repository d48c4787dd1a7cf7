import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInAs } from '../test/fixtures.ts';
import { renderWithApp, testConfig } from '../test/render.tsx';
import { ShellLogo } from './shell-logo.tsx';

afterEach(() => vi.unstubAllGlobals());

const LOGO_URL = '/api/v1/branding/companies/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d/logo?v=abc';

function serveBranding(logo: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.endsWith('/company/branding')
        ? Response.json({
            logo: logo
              ? { url: LOGO_URL, width: 200, height: 80, updatedAt: '2026-01-01T00:00:00.000Z' }
              : null,
            defaultDocument: null,
          })
        : Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 }),
    ),
  );
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
