import { FILE_KINDS, FILE_STATUSES, type ProcessingStep } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { connectors } from './connectors.ts';
import { divisions } from './knowledge.ts';
import { users } from './users.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** A pgvector column without a fixed dimension: each embedding index casts it to its own dimension. */
const anyVector = customType<{ data: string }>({ dataType: () => 'vector' });

export type StepTimes = Partial<Record<ProcessingStep, { startedAt: string; finishedAt: string | null }>>;

/** One upload request: its files are reported to the uploader in one mail when all of them have finished. */
export const uploads = pgTable('uploads', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  divisionId: uuid('division_id').references(() => divisions.id, { onDelete: 'set null' }),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  notifiedAt: timestamp('notified_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An uploaded document and its processing state. Passages of `activeGeneration` are the published ones; a run
 * writes `processingGeneration` in batches and publishes it by flipping `activeGeneration` in one statement.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    divisionId: uuid('division_id')
      .notNull()
      .references(() => divisions.id, { onDelete: 'cascade' }),
    uploadId: uuid('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: FILE_KINDS }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    status: text('status', { enum: FILE_STATUSES }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    steps: jsonb('steps').$type<StepTimes>().notNull().default({}),
    pageCount: integer('page_count'),
    language: text('language'),
    /** Pages whose text came from OCR (their passages are OCR text), and the OCR's mean word confidence (0-100). */
    ocrPages: integer('ocr_pages').array(),
    ocrConfidence: real('ocr_confidence'),
    passageCount: integer('passage_count').notNull().default(0),
    /** Sum of the published passages' token counts (for the average passage length of term-statistics scoring). */
    tokenCount: bigint('token_count', { mode: 'number' }).notNull().default(0),
    activeGeneration: integer('active_generation'),
    /**
     * The passage format its published passages were written in (PASSAGE_FORMAT of reformat.job.ts); files of an older
     * format are reprocessed in the background.
     */
    passageFormat: integer('passage_format').notNull().default(0),
    processingGeneration: integer('processing_generation').notNull().default(0),
    replacesFileId: uuid('replaces_file_id'),
    /** The connector it is synced from (null: uploaded by hand), its path there and the version it was read at. */
    connectorId: uuid('connector_id').references(() => connectors.id, { onDelete: 'set null' }),
    sourcePath: text('source_path'),
    sourceVersion: text('source_version'),
    /** Its id at a source that has ids (a Microsoft 365 drive item): a moved or renamed item keeps it. */
    sourceItemId: text('source_item_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
  },
  (t) => [
    index('files_division_idx').on(t.divisionId, t.createdAt),
    index('files_company_idx').on(t.companyId),
    index('files_status_idx').on(t.status),
    index('files_connector_idx').on(t.connectorId),
    // The platform's files and storage per week.
    index('files_created_idx').on(t.createdAt),
    // The same content twice in one division is recognised; failed and cancelled files do not count.
    uniqueIndex('files_division_content_unique')
      .on(t.divisionId, t.sha256)
      .where(sql`status not in ('failed', 'cancelled')`),
  ],
);

/** PostgreSQL's full-text configurations a passage is indexed in (search/language.ts: each language's). */
export const TEXT_CONFIGS = [
  'german',
  'english',
  'russian',
  'arabic',
  'italian',
  'portuguese',
  'french',
  'simple',
] as const;
export type TextConfig = (typeof TEXT_CONFIGS)[number];

/** A searchable piece of a file, in the file's language, with its page and heading path. */
export const passages = pgTable(
  'passages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id').notNull(),
    divisionId: uuid('division_id').notNull(),
    generation: integer('generation').notNull(),
    ordinal: integer('ordinal').notNull(),
    text: text('text').notNull(),
    headingPath: text('heading_path').array().notNull().default(sql`'{}'::text[]`),
    page: integer('page'),
    /** The full-text configuration of the passage's language (german, english, ..., simple). */
    textConfig: text('text_config').notNull(),
    tsv: tsvector('tsv').notNull(),
    tokenCount: integer('token_count').notNull(),
  },
  (t) => [
    uniqueIndex('passages_file_generation_ordinal_unique').on(t.fileId, t.generation, t.ordinal),
    index('passages_scope_idx').on(t.companyId, t.divisionId),
    // One full-text index per text configuration: a question's search has one arm per configuration of the scope
    // (full-text-search.ts), which then reads only the passages of that configuration's postings.
    ...TEXT_CONFIGS.map((cfg) =>
      index(`passages_tsv_${cfg}_idx`)
        .using('gin', t.tsv)
        .where(sql.raw(`text_config = '${cfg}'`)),
    ),
  ],
);

/** One vector index: the embedder and dimension it was built with. Exactly one is active for search. */
export const embeddingIndexes = pgTable('embedding_indexes', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** `builtin:384`, `openai:text-embedding-3-small`, ...: what must match for vectors to be comparable. */
  signature: text('signature').notNull().unique(),
  embedder: text('embedder').notNull(),
  model: text('model'),
  dimension: integer('dimension').notNull(),
  status: text('status', { enum: ['building', 'active', 'retired'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
});

/**
 * A passage's vector in one embedding index. Each index has its own partial HNSW index on this table (its graph),
 * holding only the rows with `in_graph` set: a vector is written pending (no graph insert while a file is indexed)
 * and moved into the graph later by the `embedding.graph` job, and only for companies whose knowledge is too large
 * for an exact scan (see `modules/embedding/graph.job.ts`).
 */
export const passageEmbeddings = pgTable(
  'passage_embeddings',
  {
    passageId: uuid('passage_id')
      .notNull()
      .references(() => passages.id, { onDelete: 'cascade' }),
    indexId: integer('index_id')
      .notNull()
      .references(() => embeddingIndexes.id, { onDelete: 'cascade' }),
    // Copies of the passage's scope, so that an exact scan filters without a lookup per vector.
    companyId: uuid('company_id').notNull(),
    fileId: uuid('file_id').notNull(),
    generation: integer('generation').notNull(),
    embedding: anyVector('embedding').notNull(),
    /** In the index's HNSW graph (set by the `embedding.graph` job); pending rows are scanned exactly. */
    inGraph: boolean('in_graph').notNull().default(false),
  },
  (t) => [
    uniqueIndex('passage_embeddings_pk').on(t.indexId, t.passageId),
    index('passage_embeddings_scope_idx').on(t.indexId, t.companyId),
    index('passage_embeddings_pending_idx').on(t.indexId, t.companyId).where(sql`not ${t.inGraph}`),
  ],
);
