/** Whether a query failed on a unique index (PostgreSQL 23505), directly or as the cause of a driver error. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
