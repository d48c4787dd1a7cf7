import { screen, within } from '@testing-library/react';
import { adminPeopleContracts as people } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { publicUser } from './admin-people-test-data.ts';
import PublicUserDetailPage from './public-user-detail-page.tsx';
import PublicUsersPage from './public-users-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the public users pages', () => {
  it('list each person with their contact and the chats they used', async () => {
    signedInAs('Administrator');
    fakeApi().on(people.listPublicUsers, () => page([publicUser]));
    renderWithApp(<PublicUsersPage />, '/admin/users/public-user');
    const row = within((await screen.findByText('Vera Gast')).closest('tr')!);
    expect(row.getByText('vera@besuch.example')).toBeTruthy();
    expect(row.getByText('Heizungsfragen')).toBeTruthy();
    expect(row.getByRole('link', { name: 'Open: Vera Gast' }).getAttribute('href')).toBe(
      `/admin/users/public-user/${publicUser.id}`,
    );
  });

  it('show one person with their use of each chat', async () => {
    signedInAs('Administrator');
    const detail = {
      ...publicUser,
      chatUse: [
        {
          ...publicUser.chats[0]!,
          questions: 7,
          firstSeenAt: publicUser.firstSeenAt,
          lastSeenAt: publicUser.lastSeenAt,
        },
      ],
    };
    const api = fakeApi().on(people.getPublicUser, () => detail);
    renderWithApp(<PublicUserDetailPage />, `/admin/users/public-user/${publicUser.id}`);
    expect(await screen.findByRole('heading', { name: 'Vera Gast' })).toBeTruthy();
    const chats = within(screen.getByRole('table', { name: 'Chats used' }));
    expect(chats.getByText('Heizungsfragen')).toBeTruthy();
    expect(chats.getByText('7')).toBeTruthy();
    expect(api.last(people.getPublicUser)?.params.publicUserId).toBe(publicUser.id);
  });
});
