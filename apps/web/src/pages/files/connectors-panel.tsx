import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import {
  IconEdit,
  IconFolderShare,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlugConnectedX,
  IconRefresh,
} from '@tabler/icons-react';
import type { Connector, ConnectorKind } from '@werkwissen/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectorAction, useConnectors, useDeleteConnector } from '../../api/connectors.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFormat } from '../../components/format.ts';

const ConnectDialog = lazy(() => import('./connect-dialog.tsx'));
const EditConnectorDialog = lazy(() => import('./edit-connector-dialog.tsx'));

/** What a paused connector's owner does: check the login, or connect again after the vendor withdrew the access. */
const PAUSED_HINTS: Record<ConnectorKind, string> = {
  webdav: 'connectors.pausedHint',
  microsoft365: 'connectors.microsoft.pausedHint',
  googledrive: 'connectors.google.pausedHint',
};

/** What a connector is doing, as a chip: paused, or its sync's state. */
function StateChip({ connector }: { connector: Connector }) {
  const { t } = useTranslation();
  if (connector.status === 'paused')
    return <Chip size="small" color="warning" label={t('connectors.states.paused')} />;
  if (connector.syncState !== 'idle')
    return <Chip size="small" color="info" label={t(`connectors.states.${connector.syncState}`)} />;
  return <Chip size="small" color="success" variant="outlined" label={t('connectors.states.active')} />;
}

function ConnectorCard({
  connector,
  onEdit,
  onRemove,
}: {
  connector: Connector;
  onEdit(): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const action = useConnectorAction();
  const act = (name: 'sync' | 'pause' | 'resume') =>
    action.mutate({ action: name, connectorId: connector.id });
  const r = connector.lastResult;
  const paused = connector.status === 'paused';
  return (
    <Paper variant="outlined" sx={{ p: 3 }} data-testid="connector">
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h3" sx={{ wordBreak: 'break-word' }}>
            {connector.name}
          </Typography>
          <StateChip connector={connector} />
        </Stack>
        <Typography
          variant="body2"
          color="text.secondary"
          dir="ltr"
          sx={{ wordBreak: 'break-all', textAlign: 'start' }}
        >
          {connector.url}
          {connector.folder}
        </Typography>
        <Typography variant="body2">
          {connector.lastSyncAt
            ? t('connectors.lastSync', { time: format.dateTime(connector.lastSyncAt) })
            : t('connectors.neverSynced')}
          {r && ` · ${t('connectors.counts', { ...r })}`}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('connectors.fileCount', { count: connector.fileCount })}
        </Typography>
        {connector.lastError && (
          <Alert severity={paused ? 'warning' : 'error'}>
            {connector.lastError}
            {paused && ` ${t(PAUSED_HINTS[connector.kind])}`}
          </Alert>
        )}
        {r && r.failures.length > 0 && (
          <Alert severity="info">
            {t('connectors.notTaken')}:
            <Box component="ul" sx={{ m: 0, ps: 3 }}>
              {r.failures.slice(0, 10).map((f) => (
                <li key={f.path}>
                  <bdi>{f.path}</bdi>: {t(`errors.${f.code}`)}
                </li>
              ))}
            </Box>
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button
            size="small"
            startIcon={<IconRefresh size={18} />}
            disabled={paused || connector.syncState !== 'idle' || action.isPending}
            onClick={() => act('sync')}
          >
            {t('connectors.syncNow')}
          </Button>
          {paused ? (
            <Button size="small" startIcon={<IconPlayerPlay size={18} />} onClick={() => act('resume')}>
              {t('connectors.resume')}
            </Button>
          ) : (
            <Button size="small" startIcon={<IconPlayerPause size={18} />} onClick={() => act('pause')}>
              {t('connectors.pause')}
            </Button>
          )}
          <Button size="small" startIcon={<IconEdit size={18} />} onClick={onEdit}>
            {t('connectors.edit')}
          </Button>
          <Button size="small" color="error" startIcon={<IconPlugConnectedX size={18} />} onClick={onRemove}>
            {t('connectors.remove')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** A division's connected folders: their last sync, what failed, and sync now, pause, resume, disconnect. */
export function ConnectorsPanel({ divisionId, disabled }: { divisionId: string; disabled: boolean }) {
  const { t } = useTranslation();
  const connectors = useConnectors(divisionId);
  const [connecting, setConnecting] = useState(false);
  const [removing, setRemoving] = useState<Connector | null>(null);
  const [editing, setEditing] = useState<Connector | null>(null);
  const remove = useDeleteConnector({ onSettled: () => setRemoving(null) });
  return (
    <Stack component="section" spacing={2} aria-labelledby="connectors-title">
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Box>
          <Typography id="connectors-title" variant="h5" component="h2">
            {t('connectors.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('connectors.intro')}
          </Typography>
        </Box>
        <Button
          variant="outlined"
          startIcon={<IconFolderShare size={18} />}
          disabled={disabled}
          onClick={() => setConnecting(true)}
        >
          {t('connectors.connect')}
        </Button>
      </Stack>
      {connectors.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('connectors.empty')}
        </Typography>
      )}
      {connectors.data?.map((c) => (
        <ConnectorCard
          key={c.id}
          connector={c}
          onEdit={() => setEditing(c)}
          onRemove={() => setRemoving(c)}
        />
      ))}
      <Suspense fallback={null}>
        {connecting && <ConnectDialog divisionId={divisionId} onClose={() => setConnecting(false)} />}
        {editing && <EditConnectorDialog connector={editing} onClose={() => setEditing(null)} />}
      </Suspense>
      <ConfirmDialog
        open={removing !== null}
        title={t('connectors.removeTitle')}
        text={t('connectors.removeText', { name: removing?.name })}
        confirmLabel={t('connectors.remove')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(removing!.id)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
