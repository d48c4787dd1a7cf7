/**
 * The top-level groups of the locale files that only the signed-in shell and the public chat and feedback pages show.
 * Each language is split in two chunks: `first` (everything else: the sign-in pages, errors, validation, the public
 * pages' titles) loads with the app; `signedIn` (these, and the shell's pages' texts below) loads with the shell.
 * /login never downloads them.
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
  'connectors',
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

/**
 * The groups under `pages` that belong to pages of the shell (default layout): their titles too are shown inside the
 * shell, once its texts have loaded.
 */
export const SIGNED_IN_PAGE_TEXTS = [
  'accountSettings',
  'adminDashboard',
  'aiProviders',
  'analysisDashboard',
  'apiKeys',
  'chat',
  'dashboard',
  'divisions',
  'employees',
  'feedbackReport',
  'fileViewer',
  'files',
  'knowledgeGaps',
  'processingTable',
  'search',
  'tags',
] as const;

export type TextPart = 'first' | 'signedIn';

type Texts = Record<string, unknown>;

/** Whether a text's key is in the signed-in part. */
export function isSignedInText(key: string): boolean {
  const [group, page] = key.split('.');
  return (
    (SIGNED_IN_TEXT_GROUPS as readonly string[]).includes(group ?? '') ||
    (group === 'pages' && (SIGNED_IN_PAGE_TEXTS as readonly string[]).includes(page ?? ''))
  );
}

/** One part of a locale file's texts (i18next merges the two parts deeply). */
export function textPart(texts: Texts, part: TextPart): Texts {
  const wanted = (key: string) => isSignedInText(key) === (part === 'signedIn');
  const picked: Texts = {};
  for (const [group, value] of Object.entries(texts)) {
    if (group === 'pages') {
      const pages = Object.entries(value as Texts).filter(([page]) => wanted(`pages.${page}`));
      if (pages.length) picked.pages = Object.fromEntries(pages);
    } else if (wanted(group)) picked[group] = value;
  }
  return picked;
}
