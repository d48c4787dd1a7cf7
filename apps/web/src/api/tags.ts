import { useQuery } from '@tanstack/react-query';
import { type Tag, type tagBodySchema, tagContracts } from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { feedbackKeys } from './feedback.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the company's feedback tags. */
export const tagKeys = {
  all: ['tags'] as const,
  list: () => [...tagKeys.all, 'list'] as const,
  /** The tags page's table, paged in the browser. */
  table: () => [...tagKeys.all, 'table'] as const,
};

/** Tags are shown on feedback: a changed or deleted tag changes the reports. */
const tagsChanged = () => [tagKeys.all, feedbackKeys.all];

export function useTags({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: tagKeys.list(), queryFn: () => call(tagContracts.list), enabled });
}

/** The tag list is short and unpaged on the server: search, sort and page it here. */
export function pageOf(items: Tag[], query: ListQuery) {
  const q = query.q?.toLocaleLowerCase();
  const found = q ? items.filter((tag) => tag.name.toLocaleLowerCase().includes(q)) : items;
  const field = (query.sort ?? 'name').replace('-', '') as 'name' | 'feedbackCount' | 'createdAt';
  const direction = query.sort?.startsWith('-') ? -1 : 1;
  const sorted = [...found].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    return direction * (typeof x === 'number' ? x - (y as number) : String(x).localeCompare(String(y)));
  });
  const start = (query.page - 1) * query.pageSize;
  return { items: sorted.slice(start, start + query.pageSize), total: found.length };
}

/** The data table's source for the tags page. */
export const tagTable = {
  queryKey: tagKeys.table(),
  fetchPage: async (query: ListQuery) => pageOf((await call(tagContracts.list)).items, query),
};

type TagBody = z.input<typeof tagBodySchema>;

interface Save {
  /** The tag to change; absent: a new one. */
  tagId?: string;
  body: TagBody;
}

/** Adds or changes a tag. A taken name belongs on the form's field (`claimError`). */
export function useSaveTag(callbacks?: MutationCallbacks<Save, Tag>) {
  return useApiMutation(
    {
      mutationFn: ({ tagId, body }: Save) =>
        tagId ? call(tagContracts.update, { params: { tagId }, body }) : call(tagContracts.create, { body }),
      success: (t, _tag, { tagId }) => t(tagId ? 'tags.saved' : 'tags.added'),
      invalidates: tagsChanged,
    },
    callbacks,
  );
}

export function useDeleteTag(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (tagId: string) => call(tagContracts.remove, { params: { tagId } }),
      success: (t) => t('tags.deleted'),
      invalidates: tagsChanged,
    },
    callbacks,
  );
}
