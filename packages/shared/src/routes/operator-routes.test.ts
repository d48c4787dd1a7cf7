import { describe, expect, it } from 'vitest';
import { buildAbility } from '../permissions/ability.ts';
import { DEFAULT_ROLES } from '../permissions/default-roles.ts';
import { guard } from './guard.ts';
import { findRoute } from './manifest.ts';

describe('the operator’s log, mail and settings routes', () => {
  it.each([
    ['/admin/activity-log', 'ActivityLog'],
    ['/admin/emails', 'Emails'],
    ['/admin/emails/email_template', 'EmailTemplates'],
    ['/admin/emails/7d1f0c2e-0000-4000-8000-000000000001', 'EmailDetail'],
    ['/admin/email-templates', 'EmailTemplates'],
    ['/admin/email-templates/template/setPassword', 'EmailTemplateEdit'],
    ['/admin/system-settings/branding', 'SystemSettings'],
  ])('%s shows %s', (path, page) => {
    expect(findRoute(path)?.page).toBe(page);
  });

  it('opens them to the administrator and staff by their rules, and to nobody else', () => {
    const decide = (kind: keyof typeof DEFAULT_ROLES, path: string) => {
      const ability = buildAbility(DEFAULT_ROLES[kind].rules);
      return guard({
        path,
        search: '',
        session: 'signedIn',
        can: (action, subject) => ability.can(action, subject),
        signupEnabled: true,
        invoiceListEnabled: false,
      }).kind;
    };
    for (const path of [
      '/admin/activity-log',
      '/admin/emails/email_template',
      '/admin/system-settings/general',
    ]) {
      expect(decide('Administrator', path)).toBe('allow');
      expect(decide('Staff', path)).toBe('allow');
      expect(decide('DataManager', path)).toBe('redirect');
    }
  });
});
