import {
  Alert,
  Box,
  Button,
  IconButton,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
  useTheme,
} from '@mui/material';
import {
  IconArrowLeft,
  IconExternalLink,
  IconInfoCircle,
  IconPlayerStop,
  IconPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { type KnowledgeFile, matchPath } from '@werkwissen/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useBillingStatus } from '../../api/billing.ts';
import { useDivisions } from '../../api/divisions.ts';
import { useDeleteFile, useDivisionFilesTable, useFileAction } from '../../api/files.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { ConnectorsPanel } from './connectors-panel.tsx';
import { FileNameCell, sizeAndKindColumns, sourceColumn } from './file-columns.tsx';
import { anyInProgress, FileStatusCell, isFinal, StatusFilter, useFailureMessage } from './file-status.tsx';
import { fileLink } from './file-url.ts';

const UploadDialog = lazy(() => import('./upload-dialog.tsx'));
const FileDetailsDialog = lazy(() => import('./file-details-dialog.tsx'));

/** `/divisions/:divisionId`: the files of a division with their processing status, live while they are processed. */
export default function DivisionFilesPage() {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const theme = useTheme();
  const format = useFormat();
  const failureMessage = useFailureMessage();
  const location = useLocation();
  const divisionId = matchPath('/divisions/:divisionId', location.pathname)?.divisionId ?? '';
  const divisions = useDivisions();
  const division = divisions.data?.items.find((d) => d.id === divisionId);
  const [status, setStatus] = useState('');
  const [uploading, setUploading] = useState(false);
  // An ended plan keeps reading open and closes uploading (the server refuses it with PLAN_EXPIRED).
  const planEnded = useBillingStatus().data?.subscription?.ended ?? false;
  const [details, setDetails] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeFile | null>(null);
  const table = useDivisionFilesTable(divisionId, status);
  const fileAction = useFileAction();
  const remove = useDeleteFile({ onSettled: () => setDeleting(null) });
  const act = (action: 'retry' | 'cancel', file: KnowledgeFile) =>
    fileAction.mutate({ action, fileId: file.id });

  const backArrow = (
    <IconArrowLeft size={18} style={theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : {}} />
  );

  const columns: Column<KnowledgeFile>[] = [
    {
      id: 'status',
      label: t('pages.files.status'),
      sortable: true,
      render: (f) => <FileStatusCell file={f} failure={failureMessage(f)} />,
      csv: (f) => t(`pages.files.statuses.${f.status}`),
    },
    {
      id: 'name',
      label: t('pages.files.name'),
      sortable: true,
      // On one line, cut with an ellipsis (the whole name on hover), never broken inside a word.
      fill: true,
      minWidth: 160,
      render: (f) => <FileNameCell file={f} />,
      csv: (f) => f.name,
    },
    sourceColumn(t),
    ...sizeAndKindColumns(t, format),
    {
      id: 'createdAt',
      label: t('pages.files.added'),
      sortable: true,
      render: (f) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(f.createdAt)}</Box>,
      csv: (f) => format.dateTime(f.createdAt),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (f) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Tooltip title={t('pages.files.openOriginal')}>
            <IconButton
              component="a"
              href={fileLink({ fileId: f.id, pdf: f.kind === 'pdf' }, location.pathname)}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`${t('pages.files.openOriginal')}: ${f.name}`}
            >
              <IconExternalLink size={20} />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('pages.files.details.title')}>
            <IconButton
              aria-label={`${t('pages.files.details.title')}: ${f.name}`}
              onClick={() => setDetails(f.id)}
            >
              <IconInfoCircle size={20} />
            </IconButton>
          </Tooltip>
          {isFinal(f.status) ? (
            <Tooltip title={t('pages.files.retry')}>
              <IconButton aria-label={`${t('pages.files.retry')}: ${f.name}`} onClick={() => act('retry', f)}>
                <IconRefresh size={20} />
              </IconButton>
            </Tooltip>
          ) : (
            <Tooltip title={t('pages.files.cancel')}>
              <IconButton
                aria-label={`${t('pages.files.cancel')}: ${f.name}`}
                onClick={() => act('cancel', f)}
              >
                <IconPlayerStop size={20} />
              </IconButton>
            </Tooltip>
          )}
          {f.source ? (
            // A synced file would come back with the next sync: the tooltip says where to delete it.
            <Tooltip
              title={t('connectors.deleteAtSource', {
                connector: f.source.connectorName,
                path: f.source.path,
              })}
            >
              <span>
                <IconButton aria-label={`${t('common.delete')}: ${f.name}`} disabled>
                  <IconTrash size={20} />
                </IconButton>
              </span>
            </Tooltip>
          ) : (
            <Tooltip title={t('common.delete')}>
              <IconButton aria-label={`${t('common.delete')}: ${f.name}`} onClick={() => setDeleting(f)}>
                <IconTrash size={20} />
              </IconButton>
            </Tooltip>
          )}
        </Stack>
      ),
    },
  ];

  const notFound = divisions.isSuccess && !division;
  return (
    <Stack spacing={6}>
      <Box>
        <Button component={Link} to="/divisions" startIcon={backArrow} sx={{ mb: 2 }}>
          {t('pages.files.back')}
        </Button>
        <Typography variant="h4" component="h1" sx={{ wordBreak: 'break-word' }}>
          {division ? (
            t('pages.files.heading', { division: division.name })
          ) : notFound || divisions.isError ? (
            t('pages.files.title')
          ) : (
            <Skeleton width={240} />
          )}
        </Typography>
      </Box>
      {divisions.isError && <Alert severity="error">{errorMessage(divisions.error, t)}</Alert>}
      {notFound && <Alert severity="warning">{t('pages.files.divisionNotFound')}</Alert>}
      {division && ability.can('read', 'Connector') && (
        <ConnectorsPanel
          divisionId={division.id}
          disabled={planEnded || !ability.can('create', 'Connector')}
        />
      )}
      {!notFound && (
        <DataTable<KnowledgeFile>
          queryKey={table.queryKey}
          fetchPage={table.fetchPage}
          refetchInterval={(items) => (anyInProgress(items) ? 1000 : false)}
          columns={columns}
          rowKey={(f) => f.id}
          csvName="files"
          caption={division ? t('pages.files.heading', { division: division.name }) : t('pages.files.title')}
          emptyText={t('pages.files.empty')}
          defaultSort="-createdAt"
          filters={<StatusFilter value={status} onChange={setStatus} />}
          actions={
            <Button
              variant="contained"
              startIcon={<IconPlus size={18} />}
              disabled={!division || planEnded}
              title={planEnded ? t('errors.PLAN_EXPIRED') : undefined}
              onClick={() => setUploading(true)}
            >
              {t('pages.files.upload.button')}
            </Button>
          }
        />
      )}
      <Suspense fallback={null}>
        {uploading && division && (
          <UploadDialog
            divisionId={division.id}
            divisionName={division.name}
            storage={divisions.data?.storage}
            onClose={() => setUploading(false)}
          />
        )}
        {details && <FileDetailsDialog fileId={details} onClose={() => setDetails(null)} />}
      </Suspense>
      <ConfirmDialog
        open={deleting !== null}
        title={t('pages.files.deleteTitle')}
        text={t('pages.files.deleteText', { name: deleting?.name })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
