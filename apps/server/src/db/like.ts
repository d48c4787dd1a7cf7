/** A `%term%` pattern for ILIKE in which the user's own `%`, `_` and `\` match literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
