import { Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { PageHeader } from './page-header.tsx';

/**
 * A page that is one list: its title (and a line under it), the data table captioned with it, and the page's dialogs (`children`).
 * `source` is the resource module's table source (`queryKey` and `fetchPage`).
 */
export function ListPage<T>({
  title,
  subtitle,
  source,
  children,
  ...table
}: {
  title: string;
  subtitle?: string;
  source: Pick<DataTableProps<T>, 'queryKey' | 'fetchPage'>;
  children?: ReactNode;
} & Omit<DataTableProps<T>, 'queryKey' | 'fetchPage' | 'caption'>) {
  return (
    <Stack spacing={6}>
      <PageHeader title={title} subtitle={subtitle} />
      <DataTable<T> queryKey={source.queryKey} fetchPage={source.fetchPage} caption={title} {...table} />
      {children}
    </Stack>
  );
}
