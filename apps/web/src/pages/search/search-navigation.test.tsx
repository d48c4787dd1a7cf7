import { screen } from '@testing-library/react';
import {
  buildAbility,
  DEFAULT_ROLES,
  divisionContracts,
  guard,
  interpolateRules,
  type UserKind,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { menuFor } from '../../layouts/menu.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import SearchPage from './search-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const abilityOf = (kind: UserKind) =>
  buildAbility(interpolateRules(DEFAULT_ROLES[kind].rules, { user: { id: 'u1', companyId: 'c1' } }));
const knowledgeMenu = (area: 'user' | 'employee', kind: UserKind) =>
  menuFor(area, abilityOf(kind))
    .find((g) => g.section === 'knowledge')
    ?.items.map((i) => ({ path: i.path, label: i.label, icon: i.icon }));

describe('search in the navigation', () => {
  it('gives data managers a search entry beside the divisions, as employees have', () => {
    expect(knowledgeMenu('user', 'DataManager')).toEqual([
      { path: '/divisions', label: 'nav.divisions', icon: 'Folders' },
      { path: '/search', label: 'nav.search', icon: 'Search' },
    ]);
    expect(knowledgeMenu('employee', 'Employee')).toEqual([
      { path: '/employee/search', label: 'nav.search', icon: 'Search' },
    ]);
    const at = (path: string, kind: UserKind) =>
      guard({
        path,
        search: '',
        session: 'signedIn',
        can: (action, subject) => abilityOf(kind).can(action, subject),
        signupEnabled: true,
        invoiceListEnabled: false,
      });
    expect(at('/search', 'DataManager')).toEqual({
      kind: 'allow',
      route: expect.objectContaining({ page: 'Search' }),
    });
  });

  it('opens the search page at /search for a data manager', async () => {
    fakeApi().on(divisionContracts.list, () => ({ items: [], limit: 3, storage }));
    renderWithApp(<SearchPage />, '/search');
    await screen.findByText(
      'There is nothing to search yet. Add a division and upload your documents first.',
    );
    expect(
      screen.getByText(
        'Search the documents of every division of your company. Each result shows the passage found and the file it comes from.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Divisions' }).getAttribute('href')).toBe('/divisions');
  });
});
