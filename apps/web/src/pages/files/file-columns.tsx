import { Box, Typography } from '@mui/material';
import type { KnowledgeFile } from '@werkwissen/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CellText } from '../../components/cell-text.tsx';
import type { Column } from '../../components/data-table.tsx';
import type { useFormat } from '../../components/format.ts';

/** A file's size (see `useFormat().size`) and its type in words (the MIME type on hover), for every file table. */
export function sizeAndKindColumns<T extends Pick<KnowledgeFile, 'sizeBytes' | 'kind' | 'mimeType'>>(
  t: TFunction,
  format: ReturnType<typeof useFormat>,
): Column<T>[] {
  return [
    {
      id: 'sizeBytes',
      label: t('pages.files.size'),
      sortable: true,
      align: 'right',
      render: (f) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.size(f.sizeBytes)}</Box>,
      csv: (f) => format.size(f.sizeBytes),
    },
    {
      id: 'kind',
      label: t('pages.files.type'),
      render: (f) => (
        <Box component="span" title={f.mimeType} sx={{ whiteSpace: 'nowrap' }}>
          {t(`pages.files.kinds.${f.kind}`)}
        </Box>
      ),
      csv: (f) => t(`pages.files.kinds.${f.kind}`),
    },
  ];
}

/** Where a synced file comes from, in words ("From Nextcloud: Preise/Liste.pdf"); empty for a file uploaded by hand. */
export function sourceText(t: TFunction, file: Pick<KnowledgeFile, 'source'>): string {
  return file.source
    ? t('connectors.syncedFrom', { connector: file.source.connectorName, path: file.source.path })
    : '';
}

/** A file's name on one line (the whole name on hover), and under it where a synced file comes from. */
export function FileNameCell({ file }: { file: Pick<KnowledgeFile, 'name' | 'source'> }) {
  const { t } = useTranslation();
  if (!file.source) return <CellText text={file.name} />;
  return (
    <Box sx={{ minWidth: 0 }}>
      <CellText text={file.name} />
      <Typography variant="caption" color="text.secondary" component="div" noWrap>
        {sourceText(t, file)}
      </Typography>
    </Box>
  );
}

/** The source of every file for an export: a column of its own. */
export function sourceColumn<T extends Pick<KnowledgeFile, 'source'>>(t: TFunction): Column<T> {
  return { id: 'source', label: t('pages.files.source'), csv: (f) => sourceText(t, f) };
}
