/** The SQLSTATE of a failed query, directly or as the cause of a driver error. */
function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/** Whether a query failed on a unique index (PostgreSQL 23505). */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** Whether a query failed on a foreign key, e.g. a referenced row deleted meanwhile (PostgreSQL 23503). */
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === '23503';
