import { Alert, Box, Button, Link as MuiLink, Stack, Typography } from '@mui/material';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import type { FeedbackOrigin, FeedbackReportItem } from '@werkwissen/shared';
import { type MouseEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useDivisions } from '../../api/divisions.ts';
import { feedbackTable, useFeedbackSeries } from '../../api/feedback.ts';
import { useTags } from '../../api/tags.ts';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable, type ListQuery } from '../../components/data-table.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { TagChip } from '../tags/tag-chip.tsx';
import { FeedbackChart } from './feedback-chart.tsx';
import { FeedbackDrawer } from './feedback-drawer.tsx';
import { LikedIcon, MoodIcon, RatingStars } from './feedback-labels.tsx';
import {
  type FilterKey,
  ReportFilterBar,
  toReportQuery,
  toSearch,
  useReportFilters,
} from './report-filters.tsx';
import { REPORT_PATHS, ReportTabs } from './report-tabs.tsx';

export const ADMIN_REPORT_PATH = '/admin/datamanager-feedback';

interface View {
  title: string;
  /** The origin the path fixes (data managers', employees' or public feedback); undefined: any, chosen in the filter. */
  origin?: FeedbackOrigin;
  admin: boolean;
  filters: FilterKey[];
}

function viewOf(pathname: string): View {
  const path = pathname.replace(/\/$/, '');
  const common: FilterKey[] = ['from', 'to', 'divisionId', 'rating', 'mood', 'tagId', 'liked'];
  if (path === ADMIN_REPORT_PATH)
    return {
      title: 'pages.feedbackReport.adminTitle',
      // The operator's page is the data managers' feedback: employees' and visitors' stay their company's.
      origin: 'dataManager',
      admin: true,
      filters: ['from', 'to', 'companyId', 'rating', 'mood', 'liked'],
    };
  if (path === REPORT_PATHS.employees)
    return { title: 'pages.feedbackReport.employeeTitle', origin: 'employee', admin: false, filters: common };
  if (path === REPORT_PATHS.public)
    return { title: 'pages.feedbackReport.publicTitle', origin: 'public', admin: false, filters: common };
  return {
    title: 'pages.feedbackReport.title',
    admin: false,
    filters: ['from', 'to', 'divisionId', 'origin', 'rating', 'mood', 'tagId', 'liked'],
  };
}

/**
 * The feedback report (`/feedback-report` and its employee and public views; `/admin/datamanager-feedback` for
 * administrators across companies): filters, the questions and feedback per day, the list, and each feedback in a
 * drawer.
 */
export default function FeedbackReportPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { pathname } = useLocation();
  const view = viewOf(pathname);
  const filters = useReportFilters();
  const query = {
    ...toReportQuery(filters.values, view.filters),
    ...(view.origin ? { origin: view.origin } : {}),
  };
  const [open, setOpen] = useState<FeedbackReportItem | null>(null);
  const rows = useRef(new Map<string, FeedbackReportItem>());
  // Administrators narrow to one company; there is no company list to choose from, so the companies come from the
  // feedback seen so far.
  const [companies, setCompanies] = useState<Map<string, string>>(() => new Map());

  const divisions = useDivisions({ enabled: view.filters.includes('divisionId') });
  const tags = useTags({ enabled: view.filters.includes('tagId') });
  const series = useFeedbackSeries(query);
  const table = feedbackTable(pathname, query);

  const tagColor = (id: string | null) => tags.data?.items.find((tag) => tag.id === id)?.color;

  const fetchPage = async (page: ListQuery) => {
    const res = await table.fetchPage(page);
    for (const item of res.items) rows.current.set(item.id, item);
    if (view.admin && res.items.some((i) => i.companyName && !companies.has(i.companyId))) {
      setCompanies((current) => {
        const next = new Map(current);
        for (const i of res.items) if (i.companyName) next.set(i.companyId, i.companyName);
        return next;
      });
    }
    return res;
  };

  /** A click anywhere on a row opens its feedback (the question's button is the keyboard's way in). */
  const openRow = (event: MouseEvent) => {
    const target = event.target as HTMLElement;
    if (target.closest('button, a, input, select')) return;
    const id = target.closest('tr')?.querySelector('[data-feedback-id]')?.getAttribute('data-feedback-id');
    const row = id ? rows.current.get(id) : undefined;
    if (row) setOpen(row);
  };

  // Who gave it with where from, and like, mood and rating side by side: ten columns cut off the tags on a 1440 px
  // screen in German. The texts are cut to their columns, the question takes what is left.
  const columns: Column<FeedbackReportItem>[] = [
    {
      id: 'createdAt',
      label: t('reports.columns.date'),
      sortable: true,
      render: (f) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(f.createdAt)}</Box>,
    },
    ...(view.admin
      ? [
          {
            id: 'company',
            label: t('reports.columns.company'),
            render: (f: FeedbackReportItem) => <CellText text={f.companyName ?? ''} maxWidth={160} />,
          },
        ]
      : []),
    {
      id: 'givenBy',
      label: t('reports.columns.givenBy'),
      minWidth: 120,
      render: (f) => (
        <>
          <CellText text={f.givenBy} lines={2} maxWidth={200} />
          <Typography variant="body2" color="text.secondary">
            {t(`reports.origins.${f.origin}`)}
          </Typography>
        </>
      ),
    },
    {
      id: 'chat',
      label: t('reports.columns.chat'),
      render: (f) => <CellText text={f.chatName} maxWidth={160} />,
    },
    {
      id: 'question',
      label: t('reports.columns.question'),
      fill: true,
      minWidth: 200,
      render: (f) => (
        <MuiLink
          component="button"
          type="button"
          data-feedback-id={f.id}
          onClick={() => setOpen(f)}
          aria-label={`${t('reports.showDetails')}: ${f.question}`}
          sx={{ maxWidth: '100%' }}
        >
          <CellText text={f.question} lines={2} />
        </MuiLink>
      ),
    },
    {
      id: 'feedback',
      label: t('reports.columns.feedback'),
      render: (f) => (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', whiteSpace: 'nowrap' }}>
          <LikedIcon liked={f.liked} />
          <MoodIcon mood={f.mood} />
          <RatingStars rating={f.rating} />
        </Stack>
      ),
    },
    // Tags are each company's own: the administrators' report across companies leaves them to the details.
    ...(view.admin
      ? []
      : [
          {
            id: 'tag',
            label: t('reports.columns.tag'),
            render: (f: FeedbackReportItem) =>
              f.tagName ? <TagChip name={f.tagName} color={tagColor(f.tagId)} maxWidth={160} /> : null,
          },
        ]),
  ];

  const exportHref = `/api/v1/feedback-export${toSearch(query) ? `?${toSearch(query)}` : ''}`;
  return (
    <Stack spacing={6}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 3 }}
      >
        <PageHeader title={t(view.title)} />
        <Button
          variant="outlined"
          component="a"
          href={exportHref}
          download
          startIcon={<IconFileSpreadsheet size={18} />}
        >
          {t('reports.exportFull')}
        </Button>
      </Stack>
      {!view.admin && <ReportTabs />}
      <ReportFilterBar
        shown={view.filters}
        values={filters.values}
        onChange={filters.change}
        onReset={filters.reset}
        options={{
          divisions: divisions.data?.items,
          tags: tags.data?.items,
          companies: [...companies].map(([id, name]) => ({ id, name })),
        }}
      />
      {series.isError && <Alert severity="error">{errorMessage(series.error, t)}</Alert>}
      <FeedbackChart
        title={t('reports.chartTitle')}
        items={series.isError ? [] : series.data?.items}
        height={240}
      />
      <Box onClick={openRow} sx={{ '& tbody tr': { cursor: 'pointer' } }}>
        <DataTable<FeedbackReportItem>
          queryKey={table.queryKey}
          fetchPage={fetchPage}
          columns={columns}
          rowKey={(f) => f.id}
          caption={t(view.title)}
          emptyText={t('reports.empty')}
          defaultSort="-createdAt"
        />
      </Box>
      <FeedbackDrawer
        item={open}
        tagColor={tagColor(open?.tagId ?? null)}
        showCompany={view.admin}
        onClose={() => setOpen(null)}
      />
    </Stack>
  );
}
