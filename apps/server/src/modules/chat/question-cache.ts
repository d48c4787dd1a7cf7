/**
 * The tables whose rows decide what a question reads before its search and `ctx.questionState` keeps: the company's
 * plan (`subscriptions`, `plans`) and a scope's published files by language (`files`, and the `divisions` and
 * `employee_divisions` the asker's rules read them through); `companies` and `users`, whose deletes cascade into them.
 */
export const QUESTION_TABLES = [
  'subscriptions',
  'plans',
  'files',
  'divisions',
  'employee_divisions',
  'companies',
  'users',
] as const;
