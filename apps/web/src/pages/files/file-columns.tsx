import { Box } from '@mui/material';
import type { KnowledgeFile } from '@werkwissen/shared';
import type { TFunction } from 'i18next';
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
