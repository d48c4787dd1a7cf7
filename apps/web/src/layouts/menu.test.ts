import { buildAbility, DEFAULT_ROLES } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { menuFor } from './menu.ts';

const entries = (rules: Parameters<typeof buildAbility>[0]) =>
  menuFor('admin', buildAbility(rules)).flatMap((group) => group.items.map((i) => i.id));

describe('the admin menu', () => {
  it('shows a custom staff role exactly what it allows: the feedback report, nothing of users or roles', () => {
    const ids = entries([{ action: 'read', subject: ['admin', 'Feedback'] }]);
    expect(ids).toContain('adminFeedback');
    expect(ids).not.toContain('adminStaff');
    expect(ids).not.toContain('adminRoles');
    expect(entries([{ action: 'read', subject: 'admin' }])).not.toContain('adminFeedback');
  });

  it('shows the administrator staff and roles, and the Staff role staff only', () => {
    expect(entries(DEFAULT_ROLES.Administrator.rules)).toEqual(
      expect.arrayContaining(['adminStaff', 'adminRoles']),
    );
    const staff = entries(DEFAULT_ROLES.Staff.rules);
    expect(staff).toContain('adminStaff');
    expect(staff).not.toContain('adminRoles');
  });

  it('links the analysis area for whoever may read it, and the analysis area back to the back office', () => {
    const admin = buildAbility(DEFAULT_ROLES.Administrator.rules);
    const analysis = menuFor('admin', admin)
      .flatMap((g) => g.items)
      .find((i) => i.id === 'analysisDashboard');
    expect(analysis).toMatchObject({
      path: '/analysis/dashboard',
      label: 'nav.analysis',
      section: 'overview',
    });
    expect(entries(DEFAULT_ROLES.Staff.rules)).not.toContain('analysisDashboard');
    expect(entries([...DEFAULT_ROLES.Staff.rules, { action: 'read', subject: 'analysis' }])).toContain(
      'analysisDashboard',
    );
    const back = menuFor('analysis', admin).flatMap((g) => g.items.map((i) => [i.id, i.label]));
    expect(back).toEqual(
      expect.arrayContaining([
        ['analysisDashboard', 'nav.dashboard'],
        ['adminDashboard', 'nav.backOffice'],
      ]),
    );
  });
});
