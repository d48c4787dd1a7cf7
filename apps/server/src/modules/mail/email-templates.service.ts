import {
  findTemplateProblem,
  LANGUAGES,
  type Language,
  MAIL_TEMPLATE_KINDS,
  MAIL_TEMPLATE_VARIABLES,
  type MailTemplateKind,
  type TemplateText,
} from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { emailTemplates } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import type { Change } from '../settings/system-settings.service.ts';
import { defaultTemplate } from './default-templates.ts';
import { dispatch, renderOutgoing, writeToOutbox } from './outbox.service.ts';
import { sampleMail } from './sample-mail.ts';

type EditedRow = typeof emailTemplates.$inferSelect;

/** The kind of a path, or 404: templates are a fixed set, and an unknown one is absent like any resource. */
function templateKind(kind: string): MailTemplateKind {
  if (!(MAIL_TEMPLATE_KINDS as readonly string[]).includes(kind)) throw notFound();
  return kind as MailTemplateKind;
}

/** The kind and language of a path, or 404. */
function templateKey(kind: string, language: string): { kind: MailTemplateKind; language: Language } {
  if (!(LANGUAGES as readonly string[]).includes(language)) throw notFound();
  return { kind: templateKind(kind), language: language as Language };
}

const presentLanguage = (kind: MailTemplateKind, language: Language, edited: EditedRow | undefined) => ({
  language,
  ...(edited ? { subject: edited.subject, body: edited.body } : defaultTemplate(kind, language)),
  edited: Boolean(edited),
  updatedAt: edited?.updatedAt.toISOString() ?? null,
});

async function editedRows(ctx: AppContext, kind?: MailTemplateKind) {
  return ctx.db
    .select()
    .from(emailTemplates)
    .where(kind ? eq(emailTemplates.kind, kind) : undefined);
}

/** Every mail kind with the languages the operator edited and those still on the default text. */
export async function listEmailTemplates(ctx: AppContext) {
  const rows = await editedRows(ctx);
  return {
    items: MAIL_TEMPLATE_KINDS.map((kind) => {
      const edited = rows.filter((r) => r.kind === kind);
      const editedLanguages = LANGUAGES.filter((l) => edited.some((r) => r.language === l));
      const latest = edited.map((r) => r.updatedAt.getTime()).sort((a, b) => b - a)[0];
      return {
        kind,
        editedLanguages,
        defaultLanguages: LANGUAGES.filter((l) => !editedLanguages.includes(l)),
        updatedAt: latest === undefined ? null : new Date(latest).toISOString(),
      };
    }),
  };
}

/** One template: its variables (described in the caller's language) and each language's text. */
export async function getEmailTemplate(ctx: AppContext, actor: Actor, kindParam: string) {
  const kind = templateKind(kindParam);
  const rows = await editedRows(ctx, kind);
  return {
    kind,
    variables: MAIL_TEMPLATE_VARIABLES[kind].map((v) => ({
      name: v.name,
      required: v.required,
      list: v.list ?? false,
      // The description of actionUrl shows its own placeholder: fill it with itself.
      description: translate(actor.language, `emailTemplates.variables.${v.name}`, {
        actionUrl: '{{actionUrl}}',
      }),
    })),
    languages: LANGUAGES.map((l) =>
      presentLanguage(
        kind,
        l,
        rows.find((r) => r.language === l),
      ),
    ),
  };
}

/** Refuses a subject or body that names a variable the kind lacks, or a body without a required variable. */
function checkTemplate(kind: MailTemplateKind, input: TemplateText): void {
  const variables = MAIL_TEMPLATE_VARIABLES[kind];
  for (const field of ['subject', 'body'] as const) {
    const problem = findTemplateProblem(input[field], variables, { requireAll: field === 'body' });
    if (problem) {
      const { code, ...details } = problem;
      throw new AppError(code, { field, ...details });
    }
  }
}

async function languageView(ctx: AppContext, kind: MailTemplateKind, language: Language) {
  const [row] = await ctx.db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.kind, kind), eq(emailTemplates.language, language)));
  return presentLanguage(kind, language, row);
}

const textOf = (view: { subject: string; body: string; edited: boolean }) => ({
  subject: view.subject,
  body: view.body,
  edited: view.edited,
});

/** Saves one language of a template; the next mail of the kind in that language uses it. */
export async function updateEmailTemplate(
  ctx: AppContext,
  actor: Actor,
  input: { kind: string; language: string; text: TemplateText },
) {
  const { kind, language } = templateKey(input.kind, input.language);
  checkTemplate(kind, input.text);
  const before = await languageView(ctx, kind, language);
  const values = { ...input.text, updatedAt: new Date(), updatedBy: actor.userId };
  await ctx.db
    .insert(emailTemplates)
    .values({ kind, language, ...values })
    .onConflictDoUpdate({ target: [emailTemplates.kind, emailTemplates.language], set: values });
  const after = await languageView(ctx, kind, language);
  return { template: after, change: { before: textOf(before), after: textOf(after) } satisfies Change };
}

/** Puts one language of a template back to the product's default text. */
export async function resetEmailTemplate(ctx: AppContext, input: { kind: string; language: string }) {
  const { kind, language } = templateKey(input.kind, input.language);
  const before = await languageView(ctx, kind, language);
  await ctx.db
    .delete(emailTemplates)
    .where(and(eq(emailTemplates.kind, kind), eq(emailTemplates.language, language)));
  const after = await languageView(ctx, kind, language);
  return { template: after, change: { before: textOf(before), after: textOf(after) } satisfies Change };
}

/** Renders a subject and body (saved or not) with sample data, exactly as such a mail would go out. */
export async function previewEmailTemplate(
  ctx: AppContext,
  input: { kind: string; language: string; text: TemplateText },
) {
  const { kind, language } = templateKey(input.kind, input.language);
  checkTemplate(kind, input.text);
  return renderOutgoing(ctx, input.text, sampleMail(kind, language));
}

/** Sends the saved template with sample data to the caller's own address, through the outbox and the send job. */
export async function sendTestEmail(
  ctx: AppContext,
  actor: Actor,
  input: { kind: string; language: string },
) {
  const { kind, language } = templateKey(input.kind, input.language);
  const emailId = await ctx.db.transaction((tx) =>
    writeToOutbox(tx, ctx, { ...sampleMail(kind, language), to: actor.email, userId: actor.userId }),
  );
  await dispatch(ctx, [emailId]);
  return { emailId, message: translate(actor.language, 'emailTemplates.testSent', { email: actor.email }) };
}
