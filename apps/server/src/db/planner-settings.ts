/**
 * Planner settings of every session of the product, on both engines (the pool's start-up options on PostgreSQL,
 * PGlite's start parameters for the embedded database).
 *
 * random_page_cost 1.1 instead of 4: the default prices a random read like a spinning disk's. A knowledge base lives
 * on SSDs and mostly in memory, and at 4 the planner tests a question against every passage of a company (reading
 * each tsvector) instead of looking its terms up in the GIN index: at 10k passages about 4x the buffers.
 */
export const PLANNER_SETTINGS: Record<string, string> = { random_page_cost: '1.1' };

/** As `-c name=value` arguments (libpq `options`, postgres start parameters). */
export const plannerArgs = (): string[] =>
  Object.entries(PLANNER_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
