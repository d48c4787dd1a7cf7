import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './database.ts';

/**
 * Vectors as one binary parameter of type `vector[]`: PostgreSQL's binary array (array_recv) of pgvector's binary
 * vectors (vector_recv: dimension, an unused int16, then big-endian float4s). node-postgres sends a Buffer parameter
 * in binary format. Text literals cost more than writing the passages on PGlite, whose float parsing runs in
 * WebAssembly: 4,096 vectors of 384 dimensions took 2.0 s as text and 0.15 s in binary (0.25 s as text on
 * PostgreSQL). A value that is not finite is written as 0, as `toVectorLiteral` writes it.
 */
export function vectorArrayBinary(vectors: number[][], vectorTypeOid: number): Buffer {
  if (vectors.length === 0) {
    const empty = Buffer.alloc(12);
    empty.writeUInt32BE(vectorTypeOid, 8); // no dimensions, no nulls
    return empty;
  }
  const dimension = vectors[0]!.length;
  const element = 4 + 4 * dimension;
  const out = Buffer.alloc(20 + vectors.length * (4 + element));
  out.writeInt32BE(1, 0); // one dimension
  out.writeInt32BE(0, 4); // no nulls
  out.writeUInt32BE(vectorTypeOid, 8);
  out.writeInt32BE(vectors.length, 12);
  out.writeInt32BE(1, 16); // lower bound
  let at = 20;
  for (const vector of vectors) {
    if (vector.length !== dimension)
      throw new Error(`vectors of ${dimension} and ${vector.length} dimensions`);
    out.writeInt32BE(element, at);
    out.writeInt16BE(dimension, at + 4);
    out.writeInt16BE(0, at + 6);
    at += 8;
    for (const x of vector) {
      out.writeFloatBE(Number.isFinite(x) ? x : 0, at);
      at += 4;
    }
  }
  return out;
}

/**
 * The `vector[]` parameter of these vectors for a statement on `db`. The array names its element type by oid, which
 * the extension got when it was created in this database, so it is asked each time (a lookup of the catalog cache).
 */
export async function vectorArrayParam(db: DbOrTx, vectors: number[][]): Promise<SQL> {
  const { rows } = await db.execute<{ oid: number }>(sql`select 'vector'::regtype::oid as oid`);
  return sql`${sql.param(vectorArrayBinary(vectors, Number(rows[0]!.oid)))}::vector[]`;
}
