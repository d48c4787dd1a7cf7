import type { Transporter } from 'nodemailer';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { ServerConfig } from './config/load-config.ts';
import type { TokenSigner } from './core/token-crypto.ts';
import type { Db } from './db/database.ts';
import type { ReadCache } from './db/read-cache.ts';
import type { OpenStreams } from './http/open-streams.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { ActivityWriter } from './modules/activity/activity-writer.ts';
import type { Embedder } from './modules/embedding/embedder.ts';
import type { FileStorage } from './modules/files/file-storage.ts';
import type { OutboundFetch } from './modules/outbound/outbound-fetch.ts';
import type { ParserPool } from './modules/processing/parser-pool.ts';
import type { Reranker } from './modules/search/reranker.ts';
import type { SettingsCache } from './modules/settings/settings-cache.ts';

/** What services and job handlers receive: configuration and the shared resources, never an HTTP request. */
export interface AppContext {
  /** The start-up configuration; what an operator may change at run time is read through `settings`. */
  config: ServerConfig;
  /** The system settings in force (the environment's values with the operator's over them). */
  settings: SettingsCache;
  db: Db;
  pool: pg.Pool;
  jobs: JobQueue;
  signer: TokenSigner;
  mailer: Transporter | null;
  log: Logger;
  /** Where uploaded originals and processing work files live. */
  storage: FileStorage;
  embedder: Embedder;
  /** The reranking service the operator configured (RERANKER_URL), which orders an answer's passages; else null. */
  reranker: Reranker | null;
  /** The document parser processes (each started on first use, in worker processes only). */
  parser: ParserPool;
  /** Requests made on a user's behalf (AI providers) go through this `fetch`, which enforces the outbound policy. */
  outbound: OutboundFetch;
  /** This process's Prometheus metrics. */
  metrics: Metrics;
  /** The answer streams this process has open (ended by a stopping server). */
  streams: OpenStreams;
  /** Writes the activity log in batches, off the request path. */
  activity: ActivityWriter;
  /** Sessions' actors and users' data as signed-in requests read them, emptied by this process's writes to them. */
  actors: ReadCache;
  /**
   * What a question reads before its search (the company's plan, a scope's languages), emptied by this process's
   * writes to `QUESTION_TABLES` (`modules/chat/question-cache.ts`).
   */
  questionState: ReadCache;
}
