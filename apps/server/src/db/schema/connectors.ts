import {
  CONNECTOR_KINDS,
  CONNECTOR_STATUSES,
  CONNECTOR_SYNC_STATES,
  type ConnectorSyncResult,
} from '@werkwissen/shared';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { divisions } from './knowledge.ts';
import { users } from './users.ts';

/**
 * A source a division is kept in sync with (a WebDAV folder so far). Its credentials are sealed under the
 * installation's key. `syncState` is the one place that says whether a sync waits or runs: a request moves it from
 * `idle` to `queued` in one statement (so parallel requests queue one sync), the job moves it to `running` under its
 * pg-boss job id (a retry of the same job, also after a crash, takes it over again), and its end back to `idle`.
 */
export const connectors = pgTable(
  'connectors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    divisionId: uuid('division_id')
      .notNull()
      .references(() => divisions.id, { onDelete: 'cascade' }),
    /** Who connected it: mailed when it pauses. */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: CONNECTOR_KINDS }).notNull(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    userName: text('user_name').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** The folder below the URL that is synced ('' for the URL itself), without leading or trailing slash. */
    folder: text('folder').notNull().default(''),
    /** File extensions taken (lower case, no dot); empty: every supported type. */
    fileTypes: text('file_types').array().notNull().default([]),
    intervalMinutes: integer('interval_minutes').notNull().default(60),
    status: text('status', { enum: CONNECTOR_STATUSES }).notNull().default('active'),
    syncState: text('sync_state', { enum: CONNECTOR_SYNC_STATES }).notNull().default('idle'),
    /** The pg-boss job holding the running sync. */
    syncJobId: text('sync_job_id'),
    syncStartedAt: timestamp('sync_started_at', { withTimezone: true }),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastResult: jsonb('last_result').$type<ConnectorSyncResult>(),
    /** Why the last sync (or attempt) failed as a whole: an error code. */
    lastError: text('last_error'),
    /** Whole syncs that failed in a row; at CONNECTOR_PAUSE_AFTER the connector pauses. */
    failureCount: integer('failure_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('connectors_division_idx').on(t.divisionId), index('connectors_company_idx').on(t.companyId)],
);
