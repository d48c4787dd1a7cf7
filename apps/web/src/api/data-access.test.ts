import { describe, expect, it } from 'vitest';

/**
 * Server state belongs to the resource modules of `src/api`: their key factories, query hooks and mutation hooks.
 * Everywhere else, a query key written out, a hand-made query or mutation, or a direct touch of the cache is a slip.
 */
const RULES: Array<[RegExp, string]> = [
  [/queryKey\s*[:=]\s*\{?\s*\[/, 'a query key literal (use the key factory of the resource module)'],
  [
    /\b(invalidateQueries|refetchQueries|resetQueries|removeQueries|setQueryData|setQueriesData|useQueryClient)\b/,
    'the query cache used directly (a mutation hook of the resource module owns it)',
  ],
  [
    /\buse(Query|Mutation|InfiniteQuery)\s*\(/,
    'a query or mutation of its own (use a hook of the resource module)',
  ],
];

/** The generic data table runs the query its page hands it (key and fetch come from a resource module). */
const EXEMPT = new Set(['../components/data-table.tsx']);

function violations(source: string): string[] {
  return RULES.filter(([pattern]) => pattern.test(source)).map(([, what]) => what);
}

const sources = import.meta.glob<string>(
  ['../{app,auth,components,layouts,pages,routing}/**/*.{ts,tsx}', '!**/*.test.{ts,tsx}'],
  { query: '?raw', import: 'default', eager: true },
);

describe('data access outside src/api', () => {
  it('finds key literals, cache calls and hand-made queries', () => {
    expect(violations("useQuery({ queryKey: ['divisions'], queryFn })")).toHaveLength(2);
    expect(violations("<DataTable queryKey={['files', id]} />")).toHaveLength(1);
    expect(violations('void queryClient.invalidateQueries({ queryKey: divisionKeys.all });')).toHaveLength(1);
    expect(violations('const remove = useDeleteDivision(); const list = useDivisions();')).toEqual([]);
  });

  it('does not happen in any page, layout or component', () => {
    const files = Object.keys(sources);
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .filter((file) => !EXEMPT.has(file))
      .flatMap((file) => violations(sources[file]!).map((what) => `${file}: ${what}`));
    expect(found).toEqual([]);
  });
});
