/**
 * The text form of an editable e-mail template, shared by the server (which renders and checks it) and the browser
 * (which can check it as the operator types).
 *
 * - `{{name}}` inserts a variable the mail's kind provides.
 * - A line that is exactly `[label]({{actionUrl}})` is the mail's button (in the text part: `label: URL`).
 * - A line that is exactly a list variable (`{{files}}`) becomes a list.
 * - Everything else is literal text: the HTML part escapes it, so neither the operator nor a user's name can add
 *   markup. Blank lines separate paragraphs.
 */

export interface TemplateVariable {
  name: string;
  /** The mail cannot do its job without it (the link it exists for, the list it reports). */
  required: boolean;
  /** A list of lines (shown as a list when it stands on a line of its own). */
  list?: boolean;
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAME = /^[A-Za-z][A-Za-z0-9]*$/;
/** A button line: the label, then the action link, alone on its line. */
export const BUTTON_LINE = /^\s*\[([^\]\n]+)\]\(\s*\{\{\s*actionUrl\s*\}\}\s*\)\s*$/;

export type TemplateProblem =
  | { code: 'TEMPLATE_SYNTAX_INVALID'; text: string }
  | { code: 'TEMPLATE_VARIABLE_UNKNOWN'; variable: string }
  | { code: 'TEMPLATE_VARIABLE_MISSING'; variable: string };

/** The variable names a text uses, in order of first use. */
export function templateVariables(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * The first problem of a template text, or null: braces that enclose no variable name, a variable the kind does
 * not provide, or (with `requireAll`, for the body) a required variable that is missing.
 */
export function findTemplateProblem(
  text: string,
  variables: readonly TemplateVariable[],
  options: { requireAll: boolean },
): TemplateProblem | null {
  const stray = /\{\{|\}\}/.exec(text.replace(PLACEHOLDER, ''));
  if (stray) return { code: 'TEMPLATE_SYNTAX_INVALID', text: stray[0] };
  const known = new Set(variables.map((v) => v.name));
  for (const name of templateVariables(text)) {
    if (!NAME.test(name)) return { code: 'TEMPLATE_SYNTAX_INVALID', text: `{{${name}}}` };
    if (!known.has(name)) return { code: 'TEMPLATE_VARIABLE_UNKNOWN', variable: name };
  }
  if (options.requireAll) {
    const used = new Set(templateVariables(text));
    const missing = variables.find((v) => v.required && !used.has(v.name));
    if (missing) return { code: 'TEMPLATE_VARIABLE_MISSING', variable: missing.name };
  }
  return null;
}

/** Replaces each `{{name}}` with `value(name)`. */
export function fillPlaceholders(text: string, value: (name: string) => string): string {
  return text.replace(PLACEHOLDER, (_, name: string) => value(name));
}
