import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { IconTrash } from '@tabler/icons-react';
import type { ConnectedApp } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { connectedAppTable, useRevokeConnectedApp } from '../../api/mcp-oauth.ts';
import { CellText } from '../../components/cell-text.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';

/** The apps (MCP clients such as Claude) the user allowed by signing in: list and revoke. */
export function ConnectedAppsCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const revoke = useRevokeConnectedApp({ onSettled: () => setRevoking(null) });
  const date = (iso: string | null) =>
    iso ? <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(iso)}</Box> : '';

  const columns: Column<ConnectedApp>[] = [
    {
      id: 'clientName',
      label: t('pages.connectedApps.app'),
      fill: true,
      minWidth: 140,
      render: (app) => <CellText text={app.clientName} />,
      csv: (app) => app.clientName,
    },
    {
      id: 'clientId',
      label: t('pages.connectedApps.clientId'),
      render: (app) => <code dir="ltr">{app.clientId}</code>,
      csv: (app) => app.clientId,
    },
    {
      id: 'createdAt',
      label: t('pages.connectedApps.allowed'),
      render: (app) => date(app.createdAt),
      csv: (app) => app.createdAt,
    },
    {
      id: 'expiresAt',
      label: t('pages.connectedApps.until'),
      render: (app) => date(app.expiresAt),
      csv: (app) => app.expiresAt,
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (app) => (
        <Tooltip title={t('pages.connectedApps.revoke')}>
          <IconButton
            aria-label={`${t('pages.connectedApps.revoke')}: ${app.clientName}`}
            onClick={() => setRevoking(app)}
          >
            <IconTrash size={20} />
          </IconButton>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        {t('pages.connectedApps.title')}
      </Typography>
      <Typography color="text.secondary">{t('pages.connectedApps.intro')}</Typography>
      <DataTable<ConnectedApp>
        queryKey={connectedAppTable.queryKey}
        fetchPage={connectedAppTable.fetchPage}
        columns={columns}
        rowKey={(app) => app.grantId}
        csvName="connected-apps"
        caption={t('pages.connectedApps.title')}
        emptyText={t('pages.connectedApps.empty')}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t('pages.connectedApps.revokeTitle')}
        text={t('pages.connectedApps.revokeText', { name: revoking?.clientName })}
        confirmLabel={t('pages.connectedApps.revoke')}
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate(revoking!.grantId)}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  );
}
