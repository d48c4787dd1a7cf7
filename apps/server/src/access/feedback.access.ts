import { sql } from 'drizzle-orm';
import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/** Feedback on answers (and the reports over it); `origin` is who asked: `dataManager`, `employee` or `public`. */
export const feedbackAccess = defineAccess({
  subject: 'Feedback',
  table: 'feedback',
  company: 'companyId',
  fields: { companyId: column('company_id'), origin: column('origin') },
});

/** Where a question came from, in SQL over a thread `t` left-joined to its user `u`. */
export const questionOrigin = sql`(case when t.visitor_id is not null then 'public'
  when u.kind = 'Employee' then 'employee' else 'dataManager' end)`;

/**
 * The same Feedback rules over the questions the reports count beside the feedback: chat messages (`m`, joined to
 * their thread `t` and its user `u`), so that whoever reads a company's feedback reads its question figures too.
 */
export const reportedQuestionAccess = defineAccess({
  subject: 'Feedback',
  table: 'chat_messages',
  company: 'companyId',
  fields: { companyId: column('company_id'), origin: { value: () => questionOrigin } },
});
