import { fireEvent, screen, within } from '@testing-library/react';
import { companyBrandingContracts } from '@werkwissen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signedInAs } from '../test/fixtures.ts';
import { renderWithApp } from '../test/render.tsx';
import { VerticalNav } from './vertical-nav.tsx';

const nav = (collapsed: boolean) => (
  <VerticalNav
    area="user"
    collapsed={collapsed}
    semiDark={false}
    overlay={false}
    open={false}
    onClose={() => {}}
  />
);

// The session check at start stays unanswered here; the company has no logo of its own.
beforeEach(() => {
  fakeApi().on(companyBrandingContracts.get, () => ({ logo: null, brandColor: null, defaultDocument: null }));
});
afterEach(() => vi.unstubAllGlobals());

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the vertical navigation', () => {
  it('shows the whole logo, the captions and the labels when open', () => {
    signedInAs('DataManager');
    renderWithApp(nav(false), '/dashboard');
    const menu = within(screen.getByTestId('vertical-nav'));
    expect(menu.getByRole('img', { name: 'Werkwissen' }).getAttribute('width')).toBe('100');
    expect(menu.queryByTestId('logo-mark')).toBeNull();
    expect(menu.getByText('Knowledge')).toBeTruthy();
    expect(menu.getByRole('link', { name: 'Dashboard' }).textContent).toBe('Dashboard');
  });

  it('collapsed, shows the logo mark and icons, and opens while the pointer or the focus is in it', () => {
    signedInAs('DataManager');
    renderWithApp(nav(true), '/dashboard');
    const menu = within(screen.getByTestId('vertical-nav'));
    expect(menu.getByTestId('logo-mark').getAttribute('alt')).toBe('Werkwissen');
    expect(menu.queryByText('Knowledge')).toBeNull();
    const dashboard = menu.getByRole('link', { name: 'Dashboard' });
    expect(dashboard.textContent).toBe('');

    const paper = screen.getByTestId('vertical-nav').parentElement!;
    fireEvent.mouseEnter(paper);
    expect(menu.getByText('Knowledge')).toBeTruthy();
    expect(menu.getByRole('link', { name: 'Dashboard' }).textContent).toBe('Dashboard');
    expect(menu.getByRole('img', { name: 'Werkwissen' }).getAttribute('width')).toBe('100');
    fireEvent.mouseLeave(paper);
    expect(menu.queryByText('Knowledge')).toBeNull();

    // The keyboard opens it too, and leaving it closes it.
    fireEvent.focus(menu.getByRole('link', { name: 'Dashboard' }));
    expect(menu.getByText('Knowledge')).toBeTruthy();
    fireEvent.blur(menu.getByRole('link', { name: 'Dashboard' }), { relatedTarget: document.body });
    expect(menu.queryByText('Knowledge')).toBeNull();
  });
});
