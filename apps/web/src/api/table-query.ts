import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';

/** The part of a list contract's query schema a data table fills in beside paging and search: its sort. */
interface SortedQuerySchema<S> {
  shape: { sort: z.ZodType<S> };
}

/**
 * A data table's page query in the contract's terms. The table sorts by a column id (with `-` for descending), a
 * plain string; the contract lists the sorts it accepts. The sort is checked against the contract's schema, so the
 * result has the contract's query type and a sortable column the contract does not know fails here, before a request.
 */
export function tableQuery<S>(schema: SortedQuerySchema<S>, { sort, ...page }: ListQuery) {
  return { ...page, sort: schema.shape.sort.parse(sort) };
}

/** A table filter's value (as its select gives it, '' for none) checked against the contract's schema for it. */
export function filterValue<T>(schema: z.ZodType<T>, value: string): T {
  return schema.parse(value || undefined);
}
