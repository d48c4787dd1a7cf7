import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import pino from 'pino';
import type { AppContext } from './app-context.ts';
import { buildApp } from './build-app.ts';
import type { ServerConfig } from './config/load-config.ts';
import { TokenSigner } from './core/token-crypto.ts';
import { applyMigrations, type Database, openDatabase } from './db/database.ts';
import { acquireDataDirLock } from './db/embedded/data-dir-lock.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './db/embedded/embedded-database.ts';
import { ReadCache } from './db/read-cache.ts';
import { watchWrites } from './db/write-watch.ts';
import { closeGracefully } from './http/close-gracefully.ts';
import { loggerOptions } from './http/logging.ts';
import { OpenStreams } from './http/open-streams.ts';
import { ALL_JOBS, RETIRED_JOBS } from './job-registry.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { Metrics } from './metrics/metrics.ts';
import { startMetricsListener } from './metrics/metrics-endpoint.ts';
import { ActivityWriter } from './modules/activity/activity-writer.ts';
import { ACTOR_TABLES } from './modules/auth/actor-cache.ts';
import { interruptStrandedAnswers } from './modules/chat/messages.service.ts';
import { QUESTION_TABLES } from './modules/chat/question-cache.ts';
import { resumeStrandedSyncs } from './modules/connectors/sync-queue.ts';
import { MailboxWatchers } from './modules/email-assistant/mailbox-watchers.ts';
import { createEmbedder } from './modules/embedding/create-embedder.ts';
import { ensureEmbeddingIndex } from './modules/embedding/embedding-index.ts';
import { queueGraphJob } from './modules/embedding/graph.job.ts';
import { reembedJob } from './modules/embedding/reembed.job.ts';
import { openFileStorage } from './modules/files/create-file-storage.ts';
import { sealLegacyLinks } from './modules/mail/hidden-link.ts';
import { requeueStrandedMails } from './modules/mail/outbox.service.ts';
import { createOutboundFetch, hostEntryOf, outboundPolicy } from './modules/outbound/outbound-fetch.ts';
import { ParserPool, parserPoolSize } from './modules/processing/parser-pool.ts';
import { resumeStrandedFiles } from './modules/processing/process-file.jobs.ts';
import { queueReformat } from './modules/processing/reformat.job.ts';
import { createReranker } from './modules/search/reranker.ts';
import { SettingsCache } from './modules/settings/settings-cache.ts';
import { ensureFirstAdmin, type FirstAdminOutcome } from './modules/setup/first-admin.ts';
import { seedRoles } from './modules/setup/seed-roles.ts';
import { requeueStrandedWhatsApp } from './modules/whatsapp/whatsapp-requeue.job.ts';

export type Role = 'api' | 'worker' | 'all';

export interface StartOptions {
  config: ServerConfig;
  role: Role;
  logStream?: NodeJS.WritableStream;
  /** Called when the embedded database dies under the server; the default stops the process. */
  onFatal?: (message: string) => void;
}

export interface RunningServer {
  ctx: AppContext;
  app: FastifyInstance | null;
  url: string | null;
  /** The METRICS_PORT listener's `/metrics` address, when there is one. */
  metricsUrl: string | null;
  databaseUrl: string;
  firstAdmin: FirstAdminOutcome | null;
  close(): Promise<void>;
  /** The worker's share of the e-mail assistant's mailboxes (null in the API role). */
  mailWatchers: MailboxWatchers | null;
}

/** Starts one server process in a role: api (HTTP), worker (jobs) or all (both, the default). */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config, role } = options;
  const log = pino(loggerOptions(config.LOG_LEVEL), options.logStream ?? pino.destination(1));
  const publicUrlWarning = publicUrlWarningFor(config);
  if (publicUrlWarning) log.warn(publicUrlWarning);
  const metrics = new Metrics(log);
  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  };
  try {
    // First, so that an unusable bucket stops the start before anything else runs.
    const files = await openFileStorage(config);
    cleanups.push(() => files.close());
    let databaseUrl = config.DATABASE_URL;
    let embedded: EmbeddedDatabase | null = null;
    if (!databaseUrl) {
      cleanups.push(acquireDataDirLock(config.dataDir));
      const onFatal =
        options.onFatal ??
        ((message: string) => {
          log.fatal(message);
          process.exit(1);
        });
      embedded = await startEmbeddedDatabase(
        config.dataDir,
        (code, signal) =>
          onFatal(
            `The embedded database stopped unexpectedly (code ${code}, signal ${signal}); stopping the server.`,
          ),
        { optimize: config.EMBEDDED_DATABASE_OPTIMIZE },
      );
      cleanups.push(() => embedded!.stop());
      databaseUrl = embedded.url;
    }
    const database: Database = openDatabase(databaseUrl, 10, (seconds) => metrics.observeAcquire(seconds));
    cleanups.push(() => database.close());
    // Before the first statement, so that every connection of the pool is watched.
    const actors = new ReadCache();
    watchWrites(database.pool, ACTOR_TABLES, () => actors.clear());
    const questionState = new ReadCache();
    watchWrites(database.pool, QUESTION_TABLES, () => questionState.clear());
    await migrateWithLock(database);
    await seedRoles(database.db);

    // One agent per process for provider requests (closed after the job queue, like the parser); the embedder's own may also reach EMBEDDER_URL's host, which the
    // operator configured (a user cannot point provider requests at it).
    const outbound = createOutboundFetch(outboundPolicy(config));
    cleanups.push(() => outbound.close());
    const embedderOutbound = createOutboundFetch(
      outboundPolicy(
        config,
        config.EMBEDDER === 'openai' && config.EMBEDDER_URL ? [hostEntryOf(config.EMBEDDER_URL)] : [],
      ),
    );
    cleanups.push(() => embedderOutbound.close());
    // Likewise the reranking service's host, which only the operator sets.
    const rerankerOutbound = createOutboundFetch(
      outboundPolicy(config, config.RERANKER_URL ? [hostEntryOf(config.RERANKER_URL)] : []),
    );
    cleanups.push(() => rerankerOutbound.close());
    // Closed after the job queue has stopped (cleanups run in reverse), so that no running job loses its parser.
    const parser = new ParserPool(
      { memoryMb: config.PARSER_MEMORY_MB, timeoutMs: config.PARSER_TIMEOUT_SECONDS * 1000 },
      parserPoolSize(config),
    );
    cleanups.push(() => parser.close());
    const jobs = new JobQueue(databaseUrl, ALL_JOBS, log, {
      worker: role !== 'api',
      shared: embedded === null,
      retired: RETIRED_JOBS,
      onAttempt: (name, outcome, seconds) => metrics.observeJob(name, outcome, seconds),
    });
    await jobs.start();
    cleanups.push(async () => {
      await jobs.stop();
    });

    const settings = new SettingsCache(database.db, config, log);
    await settings.current();
    const ctx: AppContext = {
      config,
      settings,
      db: database.db,
      pool: database.pool,
      jobs,
      signer: new TokenSigner(config.secrets.tokenSigningKey),
      mailer: config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null,
      log,
      storage: files.storage,
      embedder: createEmbedder(config, embedderOutbound.fetch),
      reranker: createReranker(config, rerankerOutbound.fetch),
      parser,
      outbound,
      metrics,
      streams: new OpenStreams(),
      activity: new ActivityWriter(database.db, log),
      actors,
      questionState,
    };
    // After the API has answered its last request, before the database closes.
    cleanups.push(() => ctx.activity.close());
    let metricsUrl: string | null = null;
    if (config.METRICS_TOKEN || config.METRICS_PORT) {
      metrics.watch(
        database.pool,
        ALL_JOBS.map((job) => job.name),
      );
    }
    if (config.METRICS_PORT) {
      const listener = await startMetricsListener(ctx, metrics);
      cleanups.push(() => listener.close());
      metricsUrl = listener.url;
    }
    const embedding = await ensureEmbeddingIndexWithLock(database, ctx);
    // Mails written before their single-use links were sealed: sealed and masked before the log is served.
    const sealedLinks = await sealLegacyLinks(ctx);
    if (sealedLinks > 0) log.info({ sealedLinks }, 'sealed the single-use links of earlier mails');

    let watchers: MailboxWatchers | null = null;
    if (role !== 'api') {
      const recovered = await jobs.recoverOrphans(database.pool, embedded !== null);
      if (recovered > 0) log.info({ recovered }, 'requeued jobs orphaned by an earlier stop');
      // In the background: the worker takes jobs at once, a document waits only for its own parser's start.
      if (config.PARSER_WARM_START) void parser.warm();
      await jobs.work(ctx);
      jobs.watchForOrphans(database.pool);
      // Every mailbox of the e-mail assistant, shared with the other workers.
      watchers = new MailboxWatchers(ctx);
      watchers.start();
      await requeueStrandedMails(ctx);
      const resumed = await resumeStrandedFiles(ctx);
      if (resumed > 0) log.info({ resumed }, 'resumed files whose next processing step was not queued');
      await requeueStrandedWhatsApp(ctx);
      const syncs = await resumeStrandedSyncs(ctx);
      if (syncs > 0) log.info({ syncs }, 'queued again connector syncs whose job was gone');
      // Graphs the last run left unfinished (or that a migration emptied) are filled again.
      await queueGraphJob(ctx);
      // Files whose passages an older version wrote are processed again, a few at a time.
      await queueReformat(ctx);
      if (embedding.rebuild) {
        log.info(
          { signature: embedding.index.signature },
          'the embedder changed: re-embedding in the background',
        );
        await jobs.send(reembedJob, { indexId: embedding.index.id });
      }
    }

    let app: FastifyInstance | null = null;
    let url: string | null = null;
    let firstAdmin: FirstAdminOutcome | null = null;
    if (role !== 'worker') {
      const interrupted = await interruptStrandedAnswers(database.db);
      if (interrupted > 0)
        log.info({ interrupted }, 'marked answers cut off by an earlier stop as interrupted');
      firstAdmin = await ensureFirstAdmin(ctx);
      app = await buildApp(ctx, log);
      cleanups.push(() => app!.close());
      await app.listen({ port: config.PORT, host: config.HOST });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      url = serverUrl(config.HOST, port);
    }
    // Runs first when stopping: the API and the worker drain side by side, within the same grace; the mailboxes are
    // given back first (for another worker to read at once), while the queue still takes the jobs of their last mails.
    const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
    cleanups.push(async () => {
      const worker = async () => {
        await watchers?.stop();
        await jobs.stop(graceMs);
      };
      await Promise.all([app && closeGracefully(app, ctx.streams, graceMs), worker()]);
    });
    return { ctx, app, url, metricsUrl, databaseUrl, firstAdmin, close, mailWatchers: watchers };
  } catch (error) {
    // The start's own error is thrown; what stopping the half-started parts says would only hide it.
    await close().catch(() => {});
    throw error;
  }
}

const THIS_MACHINE = new Set(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost']);

/** The address printed at start: loopback and every-interface hosts are reached as localhost. */
export function serverUrl(host: string, port: number): string {
  const shown = THIS_MACHINE.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * A server that other machines reach but that has no PUBLIC_URL mails links to http://localhost:PORT, which open
 * nothing on the recipient's computer: said at start, since nothing else would show it before the first mail.
 */
export function publicUrlWarningFor(config: {
  HOST: string;
  PUBLIC_URL: string;
  publicUrlDefaulted?: boolean;
}): string | null {
  if (!config.publicUrlDefaulted || LOOPBACK.test(config.HOST)) return null;
  return `PUBLIC_URL is not set, so links in e-mails point at ${config.PUBLIC_URL}: set it to the address users reach this server at (e.g. PUBLIC_URL=https://wissen.example.com).`;
}

/** Creates the embedder's index once, even when API and worker processes start together. */
async function ensureEmbeddingIndexWithLock(database: Database, ctx: AppContext) {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock(727275)');
    return await ensureEmbeddingIndex(ctx);
  } finally {
    const unlocked = await client.query('select pg_advisory_unlock(727275)').then(
      () => true,
      () => false,
    );
    // A connection that failed to unlock is closed, not pooled: its session lock ends with it.
    client.release(!unlocked);
  }
}

/** Applies migrations under an advisory lock, so that API and worker processes starting together do not race. */
async function migrateWithLock(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    await applyMigrations(database);
  } finally {
    const unlocked = await client.query('select pg_advisory_unlock(727274)').then(
      () => true,
      () => false,
    );
    // A connection that failed to unlock is closed, not pooled: its session lock ends with it.
    client.release(!unlocked);
  }
}
