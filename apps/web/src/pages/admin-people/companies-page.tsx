import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type AdminCompany, suspendCompanyBodySchema } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyTable, useSetCompanySuspended } from '../../api/admin-people.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { CellText } from '../../components/cell-text.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import type { Column } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { ListPage } from '../../components/list-page.tsx';
import { SelectField } from '../../components/select-field.tsx';

type Filter = '' | 'true' | 'false';

/** `/admin/companies`: every company with plan, users, storage and last activity; suspend with a reason, resume. */
export default function CompaniesPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [filter, setFilter] = useState<Filter>('');
  const [suspending, setSuspending] = useState<AdminCompany | null>(null);
  const mayChange = useAuth().ability.can('update', 'Company');
  const [resuming, setResuming] = useState<AdminCompany | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const change = useSetCompanySuspended({
    onSuccess: () => {
      setSuspending(null);
      setReason('');
    },
    onSettled: () => setResuming(null),
  });
  const table = companyTable(filter);
  const nameOf = (c: AdminCompany) => c.name ?? t('admin.companies.unnamed');

  const suspend = () => {
    const parsed = suspendCompanyBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(t(parsed.error.issues[0]?.message ?? 'validation.required'));
      return;
    }
    change.mutate({ id: suspending!.id, reason: parsed.data.reason });
  };

  const columns: Column<AdminCompany>[] = [
    {
      id: 'name',
      label: t('admin.companies.name'),
      sortable: true,
      fill: true,
      minWidth: 180,
      render: (c) => (
        <Stack spacing={0.5}>
          <CellText text={nameOf(c)} />
          {c.dataManagerEmail && (
            <Typography variant="body2" color="text.secondary" component="div">
              <CellText text={c.dataManagerEmail} />
            </Typography>
          )}
        </Stack>
      ),
      csv: (c) => c.name ?? '',
    },
    { id: 'dataManager', label: t('admin.companies.dataManager'), csv: (c) => c.dataManagerEmail ?? '' },
    {
      id: 'plan',
      label: t('admin.users.plan'),
      render: (c) => (c.plan ? t(`plans.${c.plan}`) : '—'),
      csv: (c) => (c.plan ? t(`plans.${c.plan}`) : ''),
    },
    {
      id: 'users',
      label: t('admin.companies.users'),
      align: 'right',
      render: (c) => format.number(c.users),
      csv: (c) => c.users,
    },
    {
      id: 'storage',
      label: t('admin.users.storage'),
      align: 'right',
      render: (c) => format.size(c.storageBytes),
      csv: (c) => format.size(c.storageBytes),
    },
    {
      id: 'lastActivityAt',
      label: t('admin.companies.lastActivity'),
      sortable: true,
      render: (c) => (c.lastActivityAt ? format.dateTime(c.lastActivityAt) : '—'),
      csv: (c) => (c.lastActivityAt ? format.dateTime(c.lastActivityAt) : ''),
    },
    {
      id: 'status',
      label: t('admin.companies.status'),
      render: (c) =>
        c.suspendedAt ? (
          <Tooltip title={c.suspendedReason ?? ''}>
            <Chip size="small" color="warning" label={t('admin.companies.suspendedStatus')} />
          </Tooltip>
        ) : (
          <Chip size="small" color="success" label={t('admin.companies.active')} />
        ),
      csv: (c) => t(c.suspendedAt ? 'admin.companies.suspendedStatus' : 'admin.companies.active'),
    },
    { id: 'reason', label: t('admin.companies.reason'), csv: (c) => c.suspendedReason ?? '' },
    // Staff read the companies; only who may change them sees suspend and resume (else a 403).
    ...(mayChange
      ? [
          {
            id: 'actions',
            label: t('common.actions'),
            align: 'right',
            render: (c) =>
              c.suspendedAt ? (
                <Button
                  size="small"
                  onClick={() => setResuming(c)}
                  aria-label={`${t('admin.companies.resume')}: ${nameOf(c)}`}
                >
                  {t('admin.companies.resume')}
                </Button>
              ) : (
                <Button
                  size="small"
                  color="warning"
                  onClick={() => setSuspending(c)}
                  aria-label={`${t('admin.companies.suspend')}: ${nameOf(c)}`}
                >
                  {t('admin.companies.suspend')}
                </Button>
              ),
          } satisfies Column<AdminCompany>,
        ]
      : []),
  ];

  return (
    <ListPage<AdminCompany>
      title={t('admin.companies.title')}
      source={table}
      columns={columns}
      rowKey={(c) => c.id}
      csvName="companies"
      emptyText={t('admin.companies.empty')}
      defaultSort="-createdAt"
      filters={
        <SelectField
          id="company-status"
          label={t('admin.companies.status')}
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          options={[
            { value: '', label: t('admin.companies.all') },
            { value: 'false', label: t('admin.companies.active') },
            { value: 'true', label: t('admin.companies.suspendedStatus') },
          ]}
        />
      }
    >
      <Dialog open={suspending !== null} onClose={() => setSuspending(null)} fullWidth maxWidth="sm">
        <DialogTitle>
          {t('admin.companies.suspendTitle', { company: suspending ? nameOf(suspending) : '' })}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={4}>
            <DialogContentText>{t('admin.companies.suspendText')}</DialogContentText>
            <TextField
              autoFocus
              multiline
              minRows={2}
              label={t('admin.companies.reason')}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(null);
              }}
              error={reasonError !== null}
              helperText={reasonError ?? ' '}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSuspending(null)}>{t('common.cancel')}</Button>
          <Button color="warning" variant="contained" disabled={change.isPending} onClick={suspend}>
            {t('admin.companies.suspend')}
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={resuming !== null}
        title={t('admin.companies.resumeTitle', { company: resuming ? nameOf(resuming) : '' })}
        text={t('admin.companies.resumeText')}
        confirmLabel={t('admin.companies.resume')}
        pending={change.isPending}
        onConfirm={() => change.mutate({ id: resuming!.id, reason: null })}
        onClose={() => setResuming(null)}
      />
    </ListPage>
  );
}
