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
});
