/**
 * The top-level groups of the locale files that only the signed-in shell and the public chat and feedback pages show.
 * Each language is split in two chunks: `first` (everything else: the sign-in pages, errors, validation, page
 * titles) loads with the app; `signedIn` (these) loads with the shell. /login never downloads them.
 */
export const SIGNED_IN_TEXT_GROUPS = [
  'admin',
  'aiProviders',
  'analysis',
  'answer',
  'billing',
  'chat',
  'company',
  'companyLogo',
  'defaultDocument',
  'documents',
  'emailSettings',
  'emailTemplates',
  'files',
  'gaps',
  'handwerk',
  'mail',
  'mailAssistant',
  'reports',
  'settings',
  'tags',
  'tour',
  'whatsapp',
] as const;

export type TextPart = 'first' | 'signedIn';
