import { Box, Typography } from '@mui/material';
import type { AdminKnowledgeFile } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { processingTable } from '../../api/files.ts';
import { CellText } from '../../components/cell-text.tsx';
import type { Column } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { ListPage } from '../../components/list-page.tsx';
import { FileNameCell, sizeAndKindColumns, sourceColumn } from '../files/file-columns.tsx';
import { anyInProgress, FileStatusCell, StatusFilter, useFailureMessage } from '../files/file-status.tsx';

/** `/admin/vector-database/processing-table`: the files of every company and where each is in its processing. */
export default function ProcessingTablePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const failureMessage = useFailureMessage();
  const [status, setStatus] = useState('');
  const table = processingTable(status);
  const none = t('pages.files.details.none');

  // Company and division share a column, and the status cell shows the progress and the failure: nine columns side
  // by side cut off the added and error columns on a 1440 px screen. The export keeps each in a column of its own.
  const columns: Column<AdminKnowledgeFile>[] = [
    {
      id: 'where',
      label: t('pages.processingTable.companyAndDivision'),
      minWidth: 120,
      render: (f) => (
        <>
          <CellText text={f.companyName ?? none} maxWidth={200} />
          <Typography variant="body2" component="div" color="text.secondary">
            <CellText text={f.divisionName} maxWidth={200} />
          </Typography>
        </>
      ),
    },
    { id: 'companyName', label: t('pages.processingTable.company'), csv: (f) => f.companyName },
    { id: 'divisionName', label: t('pages.processingTable.division'), csv: (f) => f.divisionName },
    {
      id: 'name',
      label: t('pages.files.name'),
      sortable: true,
      fill: true,
      minWidth: 160,
      render: (f) => <FileNameCell file={f} />,
      csv: (f) => f.name,
    },
    sourceColumn(t),
    {
      id: 'status',
      label: t('pages.files.status'),
      sortable: true,
      render: (f) => (
        <FileStatusCell file={f} failure={failureMessage(f)} failureTitle={f.errorCode ?? undefined} />
      ),
      csv: (f) => t(`pages.files.statuses.${f.status}`),
    },
    { id: 'progress', label: t('pages.files.progress'), csv: (f) => f.progress },
    ...sizeAndKindColumns(t, format),
    {
      id: 'createdAt',
      label: t('pages.files.added'),
      sortable: true,
      render: (f) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(f.createdAt)}</Box>,
      csv: (f) => format.dateTime(f.createdAt),
    },
    { id: 'errorMessage', label: t('pages.processingTable.error'), csv: (f) => f.errorMessage },
  ];

  return (
    <ListPage<AdminKnowledgeFile>
      title={t('pages.processingTable.title')}
      source={table}
      refetchInterval={(items) => (anyInProgress(items) ? 2000 : false)}
      columns={columns}
      rowKey={(f) => f.id}
      csvName="processing-table"
      emptyText={t('pages.processingTable.empty')}
      defaultSort="-createdAt"
      filters={<StatusFilter value={status} onChange={setStatus} />}
    />
  );
}
