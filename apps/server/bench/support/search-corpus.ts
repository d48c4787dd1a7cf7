/**
 * The search benchmark's synthetic corpus, written straight into the database the way the worker writes it:
 * companies, divisions, `ready` files with their real passage and token counts, an active builtin embedding index,
 * and passages with builtin vectors through `writePassageBatch` (generation 0). Every vector is then marked as in
 * the graph and the HNSW index is created after the bulk insert. Deterministic for a given size and seed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../src/db/database.ts';
import type { TextConfig } from '../../src/db/schema/index.ts';
import { BuiltinEmbedder } from '../../src/modules/embedding/builtin-embedder.ts';
import { createHnswIndex } from '../../src/modules/embedding/embedding-indexes.queries.ts';
import { refreshKnowledgeStatistics } from '../../src/modules/processing/analyze.job.ts';
import type { Chunk } from '../../src/modules/processing/chunker.ts';
import { indexText, writePassageBatch } from '../../src/modules/processing/passage-writer.ts';
import { fmt, since } from './bench-kit.ts';
import { between, type Language, languages, type Random, rng, TextSource } from './synthetic-text.ts';

export const DIMENSION = 384;
/** Passages per writePassageBatch call (and the largest file). */
export const BATCH = 500;
/** Share of all passages in the one big company; the rest is split evenly between the small ones. */
export const BIG_SHARE = 0.85;
export const SMALL_COMPANIES = 5;

export interface Company {
  id: string;
  name: string;
  divisions: string[];
  quota: number;
}

export interface Corpus {
  big: Company;
  small: Company[];
  indexId: number;
  passages: number;
  files: number;
  insertSeconds: number;
  hnswSeconds: number;
}

async function insertCompany(db: DbOrTx, name: string, divisions: number, quota: number): Promise<Company> {
  const { rows } = await db.execute<{ id: string }>(
    sql`insert into companies (name) values (${name}) returning id`,
  );
  const id = rows[0]!.id;
  const ids: string[] = [];
  for (let i = 0; i < divisions; i++) {
    const { rows: d } = await db.execute<{ id: string }>(
      sql`insert into divisions (company_id, name) values (${id}, ${`Bereich ${i + 1}`}) returning id`,
    );
    ids.push(d[0]!.id);
  }
  return { id, name, divisions: ids, quota };
}

interface PreparedFile {
  language: Language;
  kind: 'pdf' | 'docx';
  chunks: Chunk[];
  vectors: number[][];
}

/** A file's passages (60-110 words' prose each) under a title and changing section headings; PDFs have pages. */
function prepareFile(
  r: Random,
  langs: { german: Language; english: Language },
  embedder: BuiltinEmbedder,
  passages: number,
): PreparedFile {
  const language = r() < 0.85 ? langs.german : langs.english;
  const text = new TextSource(language, r);
  const kind = r() < 0.5 ? 'pdf' : 'docx';
  const title = text.heading();
  let section = text.heading();
  let page = 1;
  const chunks: Chunk[] = [];
  for (let i = 0; i < passages; i++) {
    if (i > 0 && r() < 0.2) section = text.heading();
    if (kind === 'pdf' && i > 0 && r() < 0.5) page++;
    chunks.push({
      text: text.prose(between(r, 60, 110)),
      headingPath: [title, section],
      page: kind === 'pdf' ? page : null,
    });
  }
  const vectors = chunks.map((c) => embedder.embedOne(indexText(c)));
  return { language, kind, chunks, vectors };
}

/**
 * Writes the corpus, prints progress every 10k passages, and builds the HNSW index afterwards (with `buildMem` as
 * maintenance_work_mem for the build alone: the graph of 100k 384-d vectors does not fit PGlite's default 64MB,
 * and a build that spills takes several times as long; the index is the same).
 */
export async function buildCorpus(
  db: DbOrTx,
  size: number,
  seed: number,
  options: { buildMem?: string } = {},
): Promise<Corpus> {
  const r = rng(seed);
  const langs = languages();
  const embedder = new BuiltinEmbedder(DIMENSION);
  const bigQuota = Math.round(size * BIG_SHARE);
  const smallQuota = Math.floor((size - bigQuota) / SMALL_COMPANIES);
  const big = await insertCompany(db, 'Großbetrieb GmbH', 4, bigQuota);
  const small: Company[] = [];
  for (let i = 0; i < SMALL_COMPANIES; i++) {
    const quota =
      i === SMALL_COMPANIES - 1 ? size - bigQuota - smallQuota * (SMALL_COMPANIES - 1) : smallQuota;
    small.push(await insertCompany(db, `Kleinbetrieb ${i + 1}`, between(r, 2, 3), quota));
  }
  const { rows: idx } = await db.execute<{ id: number }>(sql`
    insert into embedding_indexes (signature, embedder, model, dimension, status, activated_at)
    values (${embedder.signature}, 'builtin', null, ${DIMENSION}, 'active', now()) returning id`);
  const indexId = idx[0]!.id;

  const queue: Array<{ company: Company; passages: number }> = [];
  for (const company of [big, ...small]) {
    let left = company.quota;
    while (left > 0) {
      const n = Math.min(left, between(r, 20, BATCH));
      queue.push({ company, passages: n });
      left -= n;
    }
  }
  const start = performance.now();
  let written = 0;
  let nextReport = 10_000;
  // Prepare the next file (text and vectors: CPU in this process) while the database writes the previous one.
  let prepared = prepareFile(r, langs, embedder, queue[0]!.passages);
  for (let f = 0; f < queue.length; f++) {
    const { company } = queue[f]!;
    const file = prepared;
    const divisionId = company.divisions[f % company.divisions.length]!;
    const { rows } = await db.execute<{ id: string }>(sql`
      insert into files (company_id, division_id, name, size_bytes, mime_type, kind, sha256, storage_key, status,
                         progress, active_generation, processing_generation, language, page_count, ready_at)
      values (${company.id}, ${divisionId}, ${`Dokument ${f + 1}.${file.kind}`}, ${file.chunks.length * 700},
              ${file.kind === 'pdf' ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'},
              ${file.kind}, ${createHash('sha256').update(`${seed}-${f}`).digest('hex')},
              ${`${company.id}/${randomUUID()}`}, 'ready', 100, 0, 0,
              ${file.language.name === 'german' ? 'deu' : 'eng'},
              ${file.kind === 'pdf' ? (file.chunks.at(-1)?.page ?? 1) : null}, now())
      returning id`);
    const fileId = rows[0]!.id;
    const writes: Array<Promise<void>> = [];
    for (let s = 0; s < file.chunks.length; s += BATCH) {
      writes.push(
        writePassageBatch(db, {
          fileId,
          companyId: company.id,
          divisionId,
          generation: 0,
          textConfig: file.language.name as TextConfig,
          firstOrdinal: s,
          chunks: file.chunks.slice(s, s + BATCH),
          embeddings: { indexId, vectors: file.vectors.slice(s, s + BATCH) },
        }),
      );
    }
    const next = queue[f + 1];
    if (next) prepared = prepareFile(r, langs, embedder, next.passages);
    await Promise.all(writes);
    written += file.chunks.length;
    if (written >= nextReport || f === queue.length - 1) {
      const seconds = since(start);
      console.log(
        `  ${written}/${size} passages in ${f + 1} files, ${fmt(seconds, 0)} s (${fmt(written / seconds, 0)} passages/s)`,
      );
      while (nextReport <= written) nextReport += 10_000;
    }
  }
  const insertSeconds = since(start);
  await db.execute(sql`
    update files f set passage_count = s.n, token_count = s.t
    from (select file_id, count(*) n, sum(token_count) t from passages group by file_id) s
    where s.file_id = f.id`);
  // Every vector in the graph: where the graph job leaves a company above VECTOR_EXACT_SCAN_MAX (here the small
  // companies' too, the worst case for the big company's filtered walk and what the forced-HNSW variants need).
  await db.execute(sql`update passage_embeddings set in_graph = true where index_id = ${indexId}`);
  const { rows: mwm } = await db.execute<{ maintenance_work_mem: string }>(sql`show maintenance_work_mem`);
  const buildMem = options.buildMem ?? mwm[0]?.maintenance_work_mem;
  process.stdout.write(
    `  building the HNSW index (m=16, ef_construction=64, maintenance_work_mem ${buildMem}` +
      `${options.buildMem ? `; the database's default is ${mwm[0]?.maintenance_work_mem}` : ''})... `,
  );
  const hnswStart = performance.now();
  if (options.buildMem) {
    const mem = options.buildMem;
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local maintenance_work_mem = '${mem}'`));
      await createHnswIndex(tx, { id: indexId, dimension: DIMENSION });
    });
  } else await createHnswIndex(db, { id: indexId, dimension: DIMENSION });
  const hnswSeconds = since(hnswStart);
  // As the product does after publishing: statistics for the planner (PGlite runs no autovacuum), term frequencies.
  await refreshKnowledgeStatistics(db);
  console.log(`${fmt(hnswSeconds, 1)} s`);
  return { big, small, indexId, passages: written, files: queue.length, insertSeconds, hnswSeconds };
}
