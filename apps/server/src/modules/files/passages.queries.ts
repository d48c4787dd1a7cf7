import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';

/** A published passage (of its file's live generation) with what a citation names: file, division, page, headings. */
export interface PassageRecord {
  passageId: string;
  fileId: string;
  fileName: string;
  divisionId: string;
  divisionName: string;
  /** The passage's position in its file, from 0. */
  position: number;
  page: number | null;
  headingPath: string[];
  text: string;
}

interface PassageRow extends Record<string, unknown> {
  passage_id: string;
  file_id: string;
  file_name: string;
  division_id: string;
  division_name: string;
  position: number | string;
  page: number | null;
  heading_path: string[] | null;
  text: string;
  total: number | string;
}

const toRecord = (row: PassageRow): PassageRecord => ({
  passageId: row.passage_id,
  fileId: row.file_id,
  fileName: row.file_name,
  divisionId: row.division_id,
  divisionName: row.division_name,
  position: Number(row.position),
  page: row.page,
  headingPath: row.heading_path ?? [],
  text: row.text,
});

/** The live passages, each with its position among its file's and the number of them; `readable` is on files `f`. */
const livePassages = (readable: SQL) => sql`
  select p.id as passage_id, p.file_id, f.name as file_name, p.division_id, d.name as division_name,
    (row_number() over (partition by p.file_id order by p.ordinal)) - 1 as position,
    p.page, p.heading_path, p.text, count(*) over (partition by p.file_id) as total
  from passages p
  join files f on f.id = p.file_id and f.active_generation = p.generation
  join divisions d on d.id = p.division_id
  where ${readable}`;

/** One live passage among the files `readable` allows (a condition on files `f`, company isolation included). */
export async function readablePassage(
  db: DbOrTx,
  passageId: string,
  readable: SQL,
): Promise<PassageRecord | null> {
  const { rows } = await db.execute<PassageRow>(
    sql`select * from (${livePassages(
      sql`p.file_id = (select file_id from passages where id = ${passageId}) and ${readable}`,
    )}) live where live.passage_id = ${passageId}`,
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** A run of a readable file's live passages in their order, from position `start`, and how many it has in all. */
export async function readablePassagesOfFile(
  db: DbOrTx,
  fileId: string,
  readable: SQL,
  range: { start: number; limit: number },
): Promise<{ passages: PassageRecord[]; total: number }> {
  const { rows } = await db.execute<PassageRow>(
    sql`select * from (${livePassages(
      sql`p.file_id = ${fileId} and ${readable}`,
    )}) live order by live.position offset ${range.start} limit ${range.limit}`,
  );
  const total = rows[0] ? Number(rows[0].total) : await countLive(db, fileId, readable);
  return { passages: rows.map(toRecord), total };
}

/** How many live passages a readable file has (0 for a file not readable). */
async function countLive(db: DbOrTx, fileId: string, readable: SQL): Promise<number> {
  const { rows } = await db.execute<{ n: number | string }>(sql`select count(*) as n from passages p
    join files f on f.id = p.file_id and f.active_generation = p.generation
    where p.file_id = ${fileId} and ${readable}`);
  return Number(rows[0]?.n ?? 0);
}
