import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import { IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ApiKey } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiKeyTable, useCreateApiKey, useRevokeApiKey } from '../../api/api-keys.ts';
import { CellText } from '../../components/cell-text.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { useSnackbar } from '../../components/snackbar.tsx';
import { ConnectedAppsCard } from './connected-apps-card.tsx';

const EXPIRY = [0, 30, 90, 365];

/** Personal API keys: create (the secret shown once), list, revoke; below them the apps connected by sign-in. */
export function ApiKeysTab() {
  const { t } = useTranslation();
  const format = useFormat();
  const snackbar = useSnackbar();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState(0);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const date = (iso: string | null) =>
    iso ? <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(iso)}</Box> : t('pages.apiKeys.never');
  const create = useCreateApiKey({
    onSuccess: (res) => {
      setCreated(res.token);
      setCreating(false);
      setName('');
    },
  });
  const revoke = useRevokeApiKey({ onSettled: () => setRevoking(null) });

  const columns: Column<ApiKey>[] = [
    {
      id: 'name',
      label: t('pages.apiKeys.name'),
      sortable: true,
      fill: true,
      minWidth: 140,
      render: (k) => <CellText text={k.name} />,
      csv: (k) => k.name,
    },
    {
      id: 'prefix',
      label: t('pages.apiKeys.prefix'),
      render: (k) => <code dir="ltr">{k.prefix}…</code>,
      csv: (k) => k.prefix,
    },
    {
      id: 'createdAt',
      label: t('pages.apiKeys.created'),
      sortable: true,
      render: (k) => date(k.createdAt),
      csv: (k) => k.createdAt,
    },
    {
      id: 'lastUsedAt',
      label: t('pages.apiKeys.lastUsed'),
      sortable: true,
      render: (k) => date(k.lastUsedAt),
      csv: (k) => k.lastUsedAt,
    },
    {
      id: 'questionCount',
      label: t('pages.apiKeys.questions'),
      sortable: true,
      align: 'right',
      render: (k) => format.number(k.questionCount),
      csv: (k) => String(k.questionCount),
    },
    {
      id: 'expiresAt',
      label: t('pages.apiKeys.expires'),
      render: (k) => date(k.expiresAt),
      csv: (k) => k.expiresAt,
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (k) => (
        <Tooltip title={t('pages.apiKeys.revoke')}>
          <IconButton aria-label={`${t('pages.apiKeys.revoke')}: ${k.name}`} onClick={() => setRevoking(k)}>
            <IconTrash size={20} />
          </IconButton>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack spacing={4}>
      <Alert severity="info">
        {t('pages.apiKeys.intro')}
        <Box component="span" sx={{ display: 'block', mt: 1 }}>
          {t('pages.apiKeys.reach')} <code dir="ltr">{`${window.location.origin}/api/v1/openai/v1`}</code>
        </Box>
        <Box component="span" sx={{ display: 'block', mt: 1 }}>
          {t('pages.apiKeys.mcp')} <code dir="ltr">{`${window.location.origin}/api/v1/mcp`}</code>
        </Box>
      </Alert>
      {created && (
        <Alert severity="success" onClose={() => setCreated(null)} data-testid="new-api-key">
          {t('pages.apiKeys.shownOnce')}
          <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
            <code dir="ltr" style={{ wordBreak: 'break-all' }} data-testid="new-api-key-token">
              {created}
            </code>
            <IconButton
              aria-label={t('pages.apiKeys.copy')}
              onClick={() =>
                void navigator.clipboard?.writeText(created).then(() => snackbar(t('pages.apiKeys.copied')))
              }
            >
              <IconCopy size={18} />
            </IconButton>
          </Stack>
        </Alert>
      )}
      <DataTable<ApiKey>
        queryKey={apiKeyTable.queryKey}
        fetchPage={apiKeyTable.fetchPage}
        columns={columns}
        rowKey={(k) => k.id}
        csvName="api-keys"
        caption={t('pages.apiKeys.title')}
        emptyText={t('pages.apiKeys.empty')}
        defaultSort="-createdAt"
        actions={
          <Button variant="contained" startIcon={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            {t('pages.apiKeys.create')}
          </Button>
        }
      />
      <Dialog open={creating} onClose={() => setCreating(false)} fullWidth maxWidth="xs">
        <DialogTitle>{t('pages.apiKeys.create')}</DialogTitle>
        <DialogContent>
          <Stack spacing={4} sx={{ pt: 2 }}>
            <TextField
              label={t('pages.apiKeys.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoFocus
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
            <TextField
              select
              label={t('pages.apiKeys.expiry')}
              value={expiry}
              onChange={(e) => setExpiry(Number(e.target.value))}
            >
              {EXPIRY.map((days) => (
                <MenuItem key={days} value={days}>
                  {days === 0 ? t('pages.apiKeys.noExpiry') : t('pages.apiKeys.days', { days })}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setCreating(false)}>{t('common.cancel')}</Button>
          <Button
            variant="contained"
            disabled={!name.trim() || create.isPending}
            onClick={() => create.mutate({ name: name.trim(), expiresInDays: expiry || undefined })}
          >
            {t('pages.apiKeys.createConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t('pages.apiKeys.revokeTitle')}
        text={t('pages.apiKeys.revokeText', { name: revoking?.name })}
        confirmLabel={t('pages.apiKeys.revoke')}
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate(revoking!.id)}
        onClose={() => setRevoking(null)}
      />
      <ConnectedAppsCard />
    </Stack>
  );
}
