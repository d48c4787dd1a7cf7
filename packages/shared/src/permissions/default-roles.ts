import { RULE_PLACEHOLDERS } from './ability.ts';
import type { AbilityRule } from './ability-rule.ts';
import type { UserKind } from './subjects.ts';

const own = { companyId: RULE_PLACEHOLDERS.companyId };
const self = { userId: RULE_PLACEHOLDERS.userId };
/** A company's public chat whose every division the reader may read (others' private chats stay out of sight). */
const publicChat = { ...own, visibility: 'public', divisionsReadable: true };

/**
 * The roles seeded at first start (spec section 6 plus the `analysis` permission). Administrators edit them later
 * on /admin/roles; the seed fills missing roles and upgrades a role still equal to one of EARLIER_DEFAULT_RULES.
 * These rules are all the server asks (docs/flows/access.md): a chat's attributes are `{ id, companyId,
 * userId, visibility, divisionsReadable }`, `userId` being its owner; a division's `assignedTo` is the set of its
 * employees. Company users never reach beyond their company, whatever a rule says.
 */
export const DEFAULT_ROLES: Record<UserKind, { description: string; rules: AbilityRule[] }> = {
  Administrator: {
    description:
      "Platform operator: everything, across all companies, except the companies' knowledge and chats.",
    rules: [
      { action: 'manage', subject: 'all' },
      {
        action: 'manage',
        subject: ['Division', 'File', 'Chat', 'Tag'],
        inverted: true,
        reason: "The operator sees a company's knowledge and chats only through the back office.",
      },
      {
        action: 'manage',
        subject: ['Customer', 'SalesDocument'],
        inverted: true,
        reason: "A company's customers, offers and invoices are its own business.",
      },
    ],
  },
  Staff: {
    description: "Operator's back-office team: reads the back office; more by custom roles.",
    rules: [
      {
        action: 'read',
        subject: ['admin', 'User', 'ActivityLog', 'Email', 'EmailTemplate', 'Setting', 'Company'],
      },
      { action: 'manage', subject: 'ApiKey', conditions: self },
      { action: 'read', subject: ['Subscription', 'Invoice', 'Plan'] },
    ],
  },
  DataManager: {
    description: "The customer: manages one company's knowledge, employees, chats and reports.",
    rules: [
      { action: 'read', subject: 'user' },
      { action: ['read', 'update'], subject: 'Company', conditions: { id: RULE_PLACEHOLDERS.companyId } },
      { action: 'manage', subject: ['Division', 'File', 'Feedback', 'Tag'], conditions: own },
      // Changes, deletes and publishes every chat of the company it sees; sees its own and the public ones.
      { action: ['create', 'update', 'delete', 'publish'], subject: 'Chat', conditions: own },
      { action: 'read', subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'read', subject: 'Chat', conditions: publicChat },
      { action: 'manage', subject: 'User', conditions: { ...own, kind: 'Employee' } },
      { action: 'manage', subject: 'ApiKey', conditions: self },
      // Billing: checkout, portal and cancelling of the own company's plan; its invoices; the plans on offer.
      { action: ['read', 'update'], subject: 'Subscription', conditions: own },
      { action: 'read', subject: 'Invoice', conditions: own },
      { action: 'read', subject: 'Plan' },
      // Offers and invoices (/handwerk): the company's paperwork is its data manager's alone.
      { action: 'manage', subject: ['Customer', 'SalesDocument'], conditions: own },
      // The e-mail assistant's mailboxes of the company.
      { action: 'manage', subject: 'EmailSetting', conditions: own },
      // Connectors: the folders (WebDAV so far) the company's divisions are kept in sync with.
      { action: 'manage', subject: 'Connector', conditions: own },
    ],
  },
  Employee: {
    description: 'A member of one company: chats with the divisions assigned to them.',
    rules: [
      { action: 'read', subject: 'employee' },
      { action: 'read', subject: 'Division', conditions: { ...own, assignedTo: RULE_PLACEHOLDERS.userId } },
      // A file is read only through a division the reader may read.
      { action: 'read', subject: 'File', conditions: own },
      // Not `manage`: that would include `publish`, and a public chat or share link is the data manager's call.
      { action: ['create', 'read', 'update', 'delete'], subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'read', subject: 'Chat', conditions: publicChat },
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
  // Until the server read conditions: `manage all` also reached into every company's divisions, files and chats.
  Administrator: [[{ action: 'manage', subject: 'all' }]],
  // Until the server read conditions: who sees which chat and division was decided in code.
  DataManager: [
    [
      { action: 'read', subject: 'user' },
      { action: ['read', 'update'], subject: 'Company', conditions: { id: RULE_PLACEHOLDERS.companyId } },
      { action: 'manage', subject: ['Division', 'File', 'Chat', 'Feedback', 'Tag'], conditions: own },
      { action: 'manage', subject: 'User', conditions: { ...own, kind: 'Employee' } },
      { action: 'manage', subject: 'ApiKey', conditions: self },
    ],
    // Until connectors: the current rules without `manage Connector`.
    [
      { action: 'read', subject: 'user' },
      { action: ['read', 'update'], subject: 'Company', conditions: { id: RULE_PLACEHOLDERS.companyId } },
      { action: 'manage', subject: ['Division', 'File', 'Feedback', 'Tag'], conditions: own },
      { action: ['create', 'update', 'delete', 'publish'], subject: 'Chat', conditions: own },
      { action: 'read', subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'read', subject: 'Chat', conditions: publicChat },
      { action: 'manage', subject: 'User', conditions: { ...own, kind: 'Employee' } },
      { action: 'manage', subject: 'ApiKey', conditions: self },
      { action: ['read', 'update'], subject: 'Subscription', conditions: own },
      { action: 'read', subject: 'Invoice', conditions: own },
      { action: 'read', subject: 'Plan' },
      { action: 'manage', subject: ['Customer', 'SalesDocument'], conditions: own },
      { action: 'manage', subject: 'EmailSetting', conditions: own },
    ],
  ],
  // Until e-mail templates and system settings became subjects that staff read.
  Staff: [
    [
      { action: 'read', subject: ['admin', 'User', 'ActivityLog', 'Email', 'Company'] },
      { action: 'manage', subject: 'ApiKey', conditions: self },
    ],
  ],
  Employee: [
    // Until employees lost `publish`: `manage Chat` let them make chats public and share links.
    [
      { action: 'read', subject: 'employee' },
      { action: 'read', subject: ['Division', 'File'], conditions: own },
      { action: 'manage', subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'create', subject: 'Feedback', conditions: own },
      { action: 'read', subject: 'Tag', conditions: own },
    ],
    // Until the server read conditions: assigned divisions and public chats were decided in code.
    [
      { action: 'read', subject: 'employee' },
      { action: 'read', subject: ['Division', 'File'], conditions: own },
      { action: ['create', 'read', 'update', 'delete'], subject: 'Chat', conditions: { ...own, ...self } },
      { action: 'create', subject: 'Feedback', conditions: own },
      { action: 'read', subject: 'Tag', conditions: own },
    ],
  ],
};
