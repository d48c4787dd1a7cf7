import {
  Box,
  Button,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  type Theme,
  Typography,
} from '@mui/material';
import { alpha } from '@mui/material/styles';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZES } from '@werkwissen/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv } from './csv.ts';

export interface Column<T> {
  id: string;
  label: string;
  sortable?: boolean;
  /**
   * The cell; without it the column is only in the CSV export (the table shows its value in another column).
   * `position` is the row's place in the whole filtered list, from 1 (the spec's "index" column).
   */
  render?(row: T, position: number): ReactNode;
  /** The cell's value in the CSV export (default: none, the column is left out). */
  csv?(row: T): string | number | null;
  align?: 'left' | 'right' | 'center';
  /**
   * The column takes the room the others leave, never less than `minWidth`: the one column of long texts (a file
   * name, a question), whose content is cut to fit (`CellText`), so that the table fits its card on wide screens.
   */
  fill?: boolean;
  /** The narrowest the column gets, in px (a filling column's text could otherwise shrink to nothing). */
  minWidth?: number;
}

/** A body cell's width: a filling column's cells take what is left (`max-width: 0` lets them shrink below their text). */
const cellSx = <T,>(c: Column<T>) =>
  c.fill ? { width: '100%', maxWidth: 0, minWidth: c.minWidth } : { minWidth: c.minWidth };

/**
 * A table too wide for its card scrolls inside it; shadows at the edges show that more columns are hidden there (the
 * covers scroll with the content and hide each shadow once its edge is reached; the same on both sides, so also in
 * right-to-left).
 */
const scrollShadowSx = (theme: Theme) => {
  const paper = theme.palette.background.paper;
  const shadow = alpha(theme.palette.common.black, theme.palette.mode === 'dark' ? 0.5 : 0.18);
  return {
    background: [
      `linear-gradient(to right, ${paper} 30%, ${alpha(paper, 0)}) left center / 40px 100% no-repeat local`,
      `linear-gradient(to left, ${paper} 30%, ${alpha(paper, 0)}) right center / 40px 100% no-repeat local`,
      `radial-gradient(farthest-side at 0 50%, ${shadow}, transparent) left center / 12px 100% no-repeat scroll`,
      `radial-gradient(farthest-side at 100% 50%, ${shadow}, transparent) right center / 12px 100% no-repeat scroll`,
    ].join(', '),
    backgroundColor: paper,
  };
};

export interface ListQuery {
  page: number;
  pageSize: number;
  sort?: string;
  q?: string;
}

export interface ListResult<T> {
  items: T[];
  total: number;
}

export interface DataTableProps<T> {
  queryKey: readonly unknown[];
  fetchPage(query: ListQuery): Promise<ListResult<T>>;
  columns: Column<T>[];
  rowKey(row: T): string;
  /** The file name of the table's CSV export; without it the table has no export (the page offers its own). */
  csvName?: string;
  /** What an empty page says; a function gets the search (e.g. to say that nobody has a searched address). */
  emptyText: string | ((search: string) => string);
  caption: string;
  defaultSort?: string;
  actions?: ReactNode;
  /** Filters beside the search field; their values belong in `queryKey` (a change goes back to the first page). */
  filters?: ReactNode;
  /** How often to reload the shown page, given its rows (e.g. while some are still being processed); false: never. */
  refetchInterval?(items: T[]): number | false;
}

/**
 * The one list component: server-side paging (the spec's page sizes), sorting and search, and a CSV export of all
 * matching rows (fetched page by page).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(10);
  const [sort, setSort] = useState(props.defaultSort);
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(search.trim());
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [search]);

  // Another filter goes back to the first page (adjusted while rendering, so the old page is never fetched).
  const filterKey = JSON.stringify(props.queryKey);
  const [shownFilter, setShownFilter] = useState(filterKey);
  if (shownFilter !== filterKey) {
    setShownFilter(filterKey);
    setPage(0);
  }

  const { refetchInterval } = props;
  const query = useQuery({
    queryKey: [...props.queryKey, page, pageSize, sort, q],
    queryFn: () => props.fetchPage({ page: page + 1, pageSize, sort, q: q || undefined }),
    placeholderData: (previous) => previous,
    refetchInterval: refetchInterval
      ? (current) => (current.state.data ? refetchInterval(current.state.data.items) : false)
      : undefined,
  });

  const exportCsv = async () => {
    const rows: T[] = [];
    for (let p = 1; ; p++) {
      const res = await props.fetchPage({ page: p, pageSize: 100, sort, q: q || undefined });
      rows.push(...res.items);
      if (rows.length >= res.total || res.items.length === 0) break;
    }
    const columns = props.columns.filter((c) => c.csv);
    downloadCsv(
      `${props.csvName}.csv`,
      columns.map((c) => c.label),
      rows.map((row) => columns.map((c) => c.csv!(row))),
    );
  };

  const sortBy = (id: string) => setSort(sort === id ? `-${id}` : id);
  const items = query.data?.items ?? [];
  const shown = props.columns.filter((c) => c.render);

  return (
    <Paper variant="outlined">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ p: 4, alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          type="search"
          label={t('table.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ maxWidth: { sm: 280 } }}
        />
        {props.filters}
        <Box sx={{ flex: 1 }} />
        {props.csvName && (
          <Button variant="outlined" startIcon={<IconDownload size={18} />} onClick={() => void exportCsv()}>
            {t('table.export')}
          </Button>
        )}
        {props.actions}
      </Stack>
      <TableContainer sx={scrollShadowSx}>
        <Table size="small">
          <caption
            // Visually hidden without moving it off-screen: an offset to the left scrolls the page in right-to-left.
            style={{
              captionSide: 'top',
              position: 'absolute',
              width: 1,
              height: 1,
              overflow: 'hidden',
              clipPath: 'inset(50%)',
              whiteSpace: 'nowrap',
            }}
          >
            {props.caption}
          </caption>
          <TableHead>
            <TableRow>
              {shown.map((c) => (
                <TableCell
                  key={c.id}
                  align={c.align}
                  sortDirection={
                    sort?.replace('-', '') === c.id ? (sort.startsWith('-') ? 'desc' : 'asc') : false
                  }
                >
                  {c.sortable ? (
                    <TableSortLabel
                      active={sort?.replace('-', '') === c.id}
                      direction={sort === `-${c.id}` ? 'desc' : 'asc'}
                      onClick={() => sortBy(c.id)}
                    >
                      {c.label}
                    </TableSortLabel>
                  ) : (
                    c.label
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isPending &&
              [0, 1, 2].map((i) => (
                <TableRow key={i}>
                  <TableCell colSpan={shown.length}>
                    <Skeleton />
                  </TableCell>
                </TableRow>
              ))}
            {!query.isPending && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={shown.length}>
                  <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
                    {typeof props.emptyText === 'function' ? props.emptyText(q) : props.emptyText}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
            {items.map((row, i) => (
              <TableRow key={props.rowKey(row)} hover>
                {shown.map((c) => (
                  <TableCell key={c.id} align={c.align} sx={cellSx(c)}>
                    {c.render!(row, page * pageSize + i + 1)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={query.data?.total ?? 0}
        page={page}
        onPageChange={(_e, p) => setPage(p)}
        rowsPerPage={pageSize}
        onRowsPerPageChange={(e) => {
          setPageSize(Number(e.target.value));
          setPage(0);
        }}
        rowsPerPageOptions={[...PAGE_SIZES]}
        labelRowsPerPage={t('table.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) => t('table.displayedRows', { from, to, count })}
        getItemAriaLabel={(type) => t(`table.${type}Page`)}
        // On a phone the page buttons wrap onto a line of their own instead of scrolling out of sight.
        sx={{
          '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' },
          '& .MuiTablePagination-spacer': { display: 'none' },
        }}
      />
    </Paper>
  );
}
