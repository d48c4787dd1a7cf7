import { type AbilityRule, RULE_PLACEHOLDERS } from './ability.ts';
import type { UserKind } from './subjects.ts';

const own = { companyId: RULE_PLACEHOLDERS.companyId };
const self = { userId: RULE_PLACEHOLDERS.userId };

/**
 * The roles seeded at first start (spec section 6 plus the `analysis` permission). Administrators edit them later
 * on /admin/roles; the seed fills missing roles and upgrades a role still equal to one of EARLIER_DEFAULT_RULES.
 * A chat's subject attributes are `{ companyId, userId }`, `userId` being its owner: the data manager manages
 * (and publishes) every chat of the company, an employee creates, reads, changes and deletes only their own.
 */
export const DEFAULT_ROLES: Record<UserKind, { description: string; rules: AbilityRule[] }> = {
  Administrator: {
    description: 'Platform operator: everything, across all companies.',
    rules: [{ action: 'manage', subject: 'all' }],
  },
  Staff: {
    description: "Operator's back-office team: reads the back office; more by custom roles.",
    rules: [
      {
        action: 'read',
        subject: ['admin', 'User', 'ActivityLog', 'Email', 'EmailTemplate', 'Setting', 'Company'],
      },
      { action: 'manage', subject: 'ApiKey', conditions: self },
    ],
  },
  DataManager: {
    description: "The customer: manages one company's knowledge, employees, chats and reports.",
    rules: [
      { action: 'read', subject: 'user' },
      { action: ['read', 'update'], subject: 'Company', conditions: { id: RULE_PLACEHOLDERS.companyId } },
      { action: 'manage', subject: ['Division', 'File', 'Chat', 'Feedback', 'Tag'], conditions: own },
      { action: 'manage', subject: 'User', conditions: { ...own, kind: 'Employee' } },
      { action: 'manage', subject: 'ApiKey', conditions: self },
    ],
  },
  Employee: {
    description: 'A member of one company: chats with the divisions assigned to them.',
    rules: [
      { action: 'read', subject: 'employee' },
      { action: 'read', subject: ['Division', 'File'], conditions: own },
      // Not `manage`: that would include `publish`, and a public chat or share link is the data manager's call.
      { action: ['create', 'read', 'update', 'delete'], subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'create', subject: 'Feedback', conditions: own },
      { action: 'read', subject: 'Tag', conditions: own },
    ],
  },
  PublicUser: {
    description: "An outside person using a company's public chats.",
    rules: [],
  },
};

/**
 * Rules a default role had in earlier versions. A stored role whose rules still equal one of these was never edited
 * by an administrator, so the seed replaces them with the current default; an edited role is left alone.
 */
export const EARLIER_DEFAULT_RULES: Partial<Record<UserKind, AbilityRule[][]>> = {
  // Until e-mail templates and system settings became subjects that staff read.
  Staff: [
    [
      { action: 'read', subject: ['admin', 'User', 'ActivityLog', 'Email', 'Company'] },
      { action: 'manage', subject: 'ApiKey', conditions: self },
    ],
  ],
  // Until employees lost `publish`: `manage Chat` let them make chats public and share links.
  Employee: [
    [
      { action: 'read', subject: 'employee' },
      { action: 'read', subject: ['Division', 'File'], conditions: own },
      { action: 'manage', subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'create', subject: 'Feedback', conditions: own },
      { action: 'read', subject: 'Tag', conditions: own },
    ],
  ],
};
