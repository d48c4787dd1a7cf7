/**
 * The one list of CASL actions and subjects. Lower-case subjects guard areas of the app (spec section 6); the
 * capitalised ones are resources, and company-owned resources carry a `{ companyId }` condition in role rules.
 * `publish` is making a Chat public or creating its share link (CASL's `manage` includes it).
 */
export const ACTIONS = ['manage', 'create', 'read', 'update', 'delete', 'publish'] as const;
export type Action = (typeof ACTIONS)[number];

export const SUBJECTS = [
  'all',
  'admin',
  'user',
  'employee',
  'analysis',
  'AclDemo',
  'Company',
  'User',
  'Role',
  'ApiKey',
  'ActivityLog',
  'Email',
  'EmailTemplate',
  'Setting',
  'Division',
  'File',
  'Chat',
  'Feedback',
  'Tag',
  /** Viewing the product as a data manager or employee (support); the Administrator's `manage all` includes it. */
  'Impersonation',
  /** A company's plan and its Stripe subscription (checkout, portal, cancel; the operator assigns plans by hand). */
  'Subscription',
  /** A company's invoices from Stripe. */
  'Invoice',
  /** The plan catalogue: limits and prices (the operator edits it). */
  'Plan',
  /** A company's customers, to whom its offers and invoices go. */
  'Customer',
  /** A company's offers, order confirmations, invoices and credit notes (/handwerk). */
  'SalesDocument',
  /** A company's e-mail settings: the e-mail assistant's mailboxes with their SMTP and IMAP details. */
  'EmailSetting',
  /** A division's connectors: the folders (WebDAV so far) it is kept in sync with. */
  'Connector',
] as const;
export type Subject = (typeof SUBJECTS)[number];

export const USER_KINDS = ['Administrator', 'Staff', 'DataManager', 'Employee', 'PublicUser'] as const;
export type UserKind = (typeof USER_KINDS)[number];
