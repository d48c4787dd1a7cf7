import { Box, Stack, Typography } from '@mui/material';
import type { AdminKnowledgeFile } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { processingTable } from '../../api/files.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { sizeAndKindColumns } from '../files/file-columns.tsx';
import {
  anyInProgress,
  errorTextSx,
  FileProgress,
  isFinal,
  StatusChip,
  StatusFilter,
} from '../files/file-status.tsx';

/** `/admin/vector-database/processing-table`: the files of every company and where each is in its processing. */
export default function ProcessingTablePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [status, setStatus] = useState('');
  const table = processingTable(status);
  const none = t('pages.files.details.none');

  const columns: Column<AdminKnowledgeFile>[] = [
    {
      id: 'companyName',
      label: t('pages.processingTable.company'),
      render: (f) => f.companyName ?? none,
      csv: (f) => f.companyName,
    },
    {
      id: 'divisionName',
      label: t('pages.processingTable.division'),
      render: (f) => f.divisionName,
      csv: (f) => f.divisionName,
    },
    {
      id: 'name',
      label: t('pages.files.name'),
      sortable: true,
      render: (f) => <Box sx={{ wordBreak: 'break-word', minWidth: 160 }}>{f.name}</Box>,
      csv: (f) => f.name,
    },
    {
      id: 'status',
      label: t('pages.files.status'),
      sortable: true,
      render: (f) => <StatusChip status={f.status} />,
      csv: (f) => t(`pages.files.statuses.${f.status}`),
    },
    {
      id: 'progress',
      label: t('pages.files.progress'),
      render: (f) =>
        isFinal(f.status) ? (
          f.status === 'ready' ? (
            format.percent(100)
          ) : (
            none
          )
        ) : (
          <FileProgress name={f.name} progress={f.progress} />
        ),
      csv: (f) => f.progress,
    },
    ...sizeAndKindColumns(t, format),
    {
      id: 'createdAt',
      label: t('pages.files.added'),
      sortable: true,
      render: (f) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(f.createdAt)}</Box>,
      csv: (f) => format.dateTime(f.createdAt),
    },
    {
      id: 'errorMessage',
      label: t('pages.processingTable.error'),
      render: (f) =>
        f.errorMessage ? (
          <Typography variant="body2" sx={[errorTextSx, { maxWidth: 320 }]} title={f.errorCode ?? undefined}>
            {f.errorMessage}
          </Typography>
        ) : (
          none
        ),
      csv: (f) => f.errorMessage,
    },
  ];

  return (
    <Stack spacing={6}>
      <Typography variant="h4" component="h1">
        {t('pages.processingTable.title')}
      </Typography>
      <DataTable<AdminKnowledgeFile>
        queryKey={table.queryKey}
        fetchPage={table.fetchPage}
        refetchInterval={(items) => (anyInProgress(items) ? 2000 : false)}
        columns={columns}
        rowKey={(f) => f.id}
        csvName="processing-table"
        caption={t('pages.processingTable.title')}
        emptyText={t('pages.processingTable.empty')}
        defaultSort="-createdAt"
        filters={<StatusFilter value={status} onChange={setStatus} />}
      />
    </Stack>
  );
}
