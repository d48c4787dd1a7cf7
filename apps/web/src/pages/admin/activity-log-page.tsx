import { Box, Button, Chip, IconButton, Link, Stack, Tooltip, Typography } from '@mui/material';
import { IconDownload, IconListDetails } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { activityExportUrl, activityTable } from '../../api/activity-log.ts';
import { useSystemSettings } from '../../api/system-settings.ts';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ActivityDetailDialog, type ActivityEntry } from './activity-detail-dialog.tsx';
import { ActivityFilters, type FilterValues, NO_FILTER, toActivityFilter } from './activity-filters.tsx';

const ltr = { direction: 'ltr', unicodeBidi: 'isolate' } as const;

const statusColor = (code: number) => (code >= 500 ? 'error' : code >= 400 ? 'warning' : 'success');

/**
 * `/admin/activity-log`: every mutating request and sign-in event, filtered on the server, each entry's details (with
 * what a change changed) in a dialog, and the filtered log as CSV from the server's streamed export.
 */
export default function ActivityLogPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [values, setValues] = useState<FilterValues>(NO_FILTER);
  const onFilter = useCallback((next: FilterValues) => setValues(next), []);
  const [shown, setShown] = useState<ActivityEntry | null>(null);
  const filter = toActivityFilter(values);
  const table = activityTable(filter);
  const settings = useSystemSettings();
  const none = t('admin.activity.none');

  const columns: Column<ActivityEntry>[] = [
    { id: 'index', label: t('admin.activity.columns.index'), align: 'right', render: (_e, n) => n },
    {
      id: 'createdAt',
      label: t('admin.activity.columns.time'),
      render: (e) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(e.createdAt)}</Box>,
    },
    {
      id: 'action',
      label: t('admin.activity.columns.action'),
      render: (e) => <Box sx={ltr}>{e.action}</Box>,
    },
    {
      id: 'endpoint',
      label: t('admin.activity.columns.endpoint'),
      fill: true,
      minWidth: 180,
      render: (e) => (
        <Box sx={ltr}>
          <CellText text={`${e.method} ${e.endpoint}`} />
        </Box>
      ),
    },
    {
      id: 'statusCode',
      label: t('admin.activity.columns.code'),
      render: (e) => (
        <Chip size="small" variant="outlined" color={statusColor(e.statusCode)} label={e.statusCode} />
      ),
    },
    {
      id: 'actor',
      label: t('admin.activity.columns.actor'),
      render: (e) => (
        <>
          <CellText text={e.actorEmail ?? none} maxWidth={220} />
          {e.impersonatorEmail && (
            <Typography variant="caption" color="warning.main" component="span" sx={{ display: 'block' }}>
              <CellText text={t('admin.activity.viewedBy', { email: e.impersonatorEmail })} maxWidth={220} />
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'company',
      label: t('admin.activity.columns.company'),
      render: (e) => <CellText text={e.companyName ?? none} maxWidth={180} />,
    },
    {
      id: 'ip',
      label: t('admin.activity.columns.address'),
      render: (e) => <Box sx={ltr}>{e.ip ?? none}</Box>,
    },
    {
      id: 'details',
      label: t('common.actions'),
      render: (e) => (
        <Tooltip title={t('admin.activity.showDetails')}>
          <IconButton aria-label={t('admin.activity.showDetails')} onClick={() => setShown(e)}>
            <IconListDetails size={20} />
          </IconButton>
        </Tooltip>
      ),
    },
  ];

  const retention = settings.data?.values.activityLog.retentionDays;
  return (
    <Stack spacing={6}>
      <Stack spacing={1}>
        <PageHeader title={t('admin.activity.title')} />
        {retention !== undefined && (
          <Typography color="text.secondary">
            <Trans
              i18nKey="admin.activity.retention"
              values={{ days: retention }}
              components={{
                settings: <Link component={RouterLink} to="/admin/system-settings/activity-log" />,
              }}
            />
          </Typography>
        )}
      </Stack>
      <Stack spacing={4}>
        <ActivityFilters onChange={onFilter} />
        <DataTable<ActivityEntry>
          queryKey={table.queryKey}
          fetchPage={table.fetchPage}
          columns={columns}
          rowKey={(e) => e.id}
          caption={t('admin.activity.title')}
          emptyText={t('admin.activity.empty')}
          actions={
            <Button
              variant="outlined"
              component="a"
              href={activityExportUrl(filter)}
              download
              startIcon={<IconDownload size={18} />}
            >
              {t('admin.activity.export')}
            </Button>
          }
        />
      </Stack>
      <ActivityDetailDialog entry={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
