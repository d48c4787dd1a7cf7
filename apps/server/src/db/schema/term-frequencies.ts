import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

/**
 * How many of a company's published passages hold each full-text term (lexemes of more than one passage), counted
 * by the knowledge.analyze job after files are published or deleted. Full-text search reads a question's terms here
 * instead of gathering statistics per question: which terms are rare enough to select candidates, and their IDF.
 */
export const termFrequencies = pgTable(
  'term_frequencies',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    lexeme: text('lexeme').notNull(),
    passages: integer('passages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.lexeme] })],
);

/** The company's published passages when its term frequencies were counted, to tell when they are out of date. */
export const termFrequencyCounts = pgTable('term_frequency_counts', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  passages: integer('passages').notNull(),
  countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
});
