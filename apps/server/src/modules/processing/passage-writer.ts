import type { DbOrTx } from '../../db/database.ts';
import type { TextConfig } from '../../db/schema/index.ts';
import { compoundParts, germanWordList } from '../search/german-compounds.ts';
import type { Chunk } from './chunker.ts';
import { insertPassages } from './passage-batches.queries.ts';

export interface PassageBatch {
  fileId: string;
  companyId: string;
  divisionId: string;
  generation: number;
  textConfig: TextConfig;
  /** Ordinal of the first chunk of the batch within the file. */
  firstOrdinal: number;
  chunks: Chunk[];
  /** The embedding index written to and one vector per chunk; absent when the file has no vectors (yet). */
  embeddings?: { indexId: number; vectors: number[][] };
}

/**
 * The passage format this code writes: raised whenever what a file's passages hold changes (how the chunker cuts,
 * what the index holds), so that files published in an older format are processed again (reformat.job.ts). 1: tables
 * with their caption and column names, lists kept whole, sheets' numbers as shown, German compounds' parts indexed.
 * 2: a compound's first part may be a three-letter noun ("Not-dienst-zuschlag", "Gas-therme").
 */
export const PASSAGE_FORMAT = 2;

/** The text a passage is found by: its heading path, then its own text. */
export const indexText = (chunk: Chunk) => [...chunk.headingPath, chunk.text].join('\n');

/** "Sonn- und Feiertage", "Ein- oder Ausbau": a word cut before a hyphen that shares the next compound's head. */
const SUSPENDED = /(?<![\p{L}-])(\p{L}{2,})-\s+(?:und|oder|bzw\.?|sowie|bis)\s+(\p{L}{5,})/gu;

/**
 * The words a German text writes with a suspended hyphen, written out: "Sonn- und Feiertage" holds "Sonntage",
 * "Heizungs- und Sanitärtechnik" "Heizungstechnik" (the head of the compound after it, split by
 * german-compounds.ts).
 */
export function suspendedCompounds(text: string, textWords?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SUSPENDED)) {
    const compound = m[2]!.toLowerCase();
    // The head: the longest part the compound ends with.
    const head = compoundParts(compound, textWords)
      .filter((part) => compound.endsWith(part) && part.length < compound.length)
      .sort((a, b) => b.length - a.length)[0];
    if (head) out.push(`${m[1]!.toLowerCase()}${head}`);
  }
  return out;
}

/** A capitalised word long enough to be a compound noun. */
const COMPOUND_NOUN = /\p{Lu}\p{Ll}{6,}/gu;

/**
 * The parts of a German passage's compound nouns ("Anfahrtspauschale" → "anfahrt pauschale"), indexed with it (with
 * weight C, its own words have D) so that a question naming a part finds the compound (german-compounds.ts). Without the system's word list the parts come
 * from the words of the batch's own passages. Other languages' passages get none.
 */
export function compoundTerms(chunks: Chunk[], textConfig: TextConfig): string[] {
  if (textConfig !== 'german') return chunks.map(() => '');
  const textWords = germanWordList()
    ? undefined
    : new Set(
        chunks.flatMap(
          (c) =>
            indexText(c)
              .toLowerCase()
              .match(/\p{L}{3,}/gu) ?? [],
        ),
      );
  return chunks.map((chunk) => {
    const text = indexText(chunk);
    const parts = new Set<string>();
    for (const word of new Set(text.match(COMPOUND_NOUN) ?? []))
      for (const part of compoundParts(word, textWords)) parts.add(part);
    for (const word of suspendedCompounds(text, textWords)) parts.add(word);
    return [...parts].join(' ');
  });
}

/**
 * Writes one batch of passages and their vectors in one statement: all of it or nothing, so that a crash between
 * batches leaves whole batches that the next attempt continues after. A passage's index holds its heading path, its
 * text and its compounds' parts (`compoundTerms`).
 */
export async function writePassageBatch(db: DbOrTx, batch: PassageBatch): Promise<void> {
  await insertPassages(db, {
    fileId: batch.fileId,
    companyId: batch.companyId,
    divisionId: batch.divisionId,
    generation: batch.generation,
    textConfig: batch.textConfig,
    ordinals: batch.chunks.map((_, i) => batch.firstOrdinal + i),
    texts: batch.chunks.map((c) => c.text),
    headings: batch.chunks.map((c) => JSON.stringify(c.headingPath)),
    pages: batch.chunks.map((c) => c.page),
    parts: compoundTerms(batch.chunks, batch.textConfig),
    embeddings: batch.embeddings,
  });
}
