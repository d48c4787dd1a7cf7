import { fireEvent, screen } from '@testing-library/react';
import { authContracts, type MeResponse } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signedInAs } from '../test/fixtures.ts';
import { renderWithApp } from '../test/render.tsx';
import DefaultLayout from './default-layout.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the default layout', () => {
  it('starts with a skip link that moves the keyboard past the navigation to the main content', async () => {
    signedInAs('DataManager');
    const me: MeResponse = {
      userData: JSON.parse(localStorage.getItem('userData')!),
      userRole: 'DataManager',
      userAbilityRules: JSON.parse(localStorage.getItem('userAbilityRules')!),
      csrfToken: 'csrf',
    };
    fakeApi().on(authContracts.me, () => me);
    renderWithApp(
      <DefaultLayout>
        <p>Inhalt</p>
      </DefaultLayout>,
      '/dashboard',
    );
    const skip = await screen.findByRole('link', { name: 'Skip to main content' });
    const focusable = document.querySelectorAll('a[href], button, input, [tabindex]:not([tabindex="-1"])');
    expect(focusable[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(screen.getByRole('main').textContent).toContain('Inhalt');
  });
});
