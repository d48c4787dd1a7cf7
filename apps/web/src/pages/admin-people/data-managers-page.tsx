import { Button, Chip, Stack } from '@mui/material';
import { IconPlus, IconUpload } from '@tabler/icons-react';
import {
  DATA_MANAGER_CSV_COLUMNS,
  DATA_MANAGER_STATUSES,
  type DataManager,
  type DataManagerStatus,
} from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dataManagerTable, useCreateDataManager, useImportDataManagers } from '../../api/admin-people.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { CellText } from '../../components/cell-text.tsx';
import type { Column } from '../../components/data-table.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useFormat } from '../../components/format.ts';
import { ImportDialog, importHeaders } from '../../components/import-dialog.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { DataManagerForm, type DataManagerValues } from './data-manager-form.tsx';
import { DataManagerStatusChip } from './data-manager-status.tsx';
import { OpenButton } from './open-button.tsx';
import { userEmptyText } from './user-empty-text.ts';

/** `/admin/users/data-manager`: every company's data manager; search, filter, export, add, import, open one. */
export default function DataManagersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [status, setStatus] = useState<DataManagerStatus | ''>('');
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const create = useCreateDataManager({ onSuccess: () => setAdding(false) });
  const table = dataManagerTable(status);
  const mayAdd = useAuth().ability.can('create', 'User');

  // The form puts the server's field errors on its fields (the snackbar says what failed as well).
  const add = async (values: DataManagerValues) => {
    await create.mutateAsync({ ...values, phone: values.phone || undefined });
  };

  const columns: Column<DataManager>[] = [
    {
      id: 'lastName',
      label: t('admin.users.name'),
      sortable: true,
      render: (m) => <CellText text={`${m.firstName} ${m.lastName}`} lines={2} maxWidth={200} />,
    },
    // The export's first columns are the import's, under the same headers: an exported file imports again.
    { id: 'firstName', label: t(DATA_MANAGER_CSV_COLUMNS.firstName), csv: (m) => m.firstName },
    { id: 'lastNameCsv', label: t(DATA_MANAGER_CSV_COLUMNS.lastName), csv: (m) => m.lastName },
    {
      id: 'email',
      label: t('fields.email'),
      sortable: true,
      fill: true,
      minWidth: 180,
      render: (m) => <CellText text={m.email} />,
      csv: (m) => m.email,
    },
    { id: 'phone', label: t(DATA_MANAGER_CSV_COLUMNS.phone), csv: (m) => m.phone ?? '' },
    { id: 'language', label: t(DATA_MANAGER_CSV_COLUMNS.language), csv: (m) => m.language },
    {
      id: 'companyName',
      label: t(DATA_MANAGER_CSV_COLUMNS.companyName),
      sortable: true,
      render: (m) => (
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <CellText text={m.companyName ?? '—'} maxWidth={200} />
          {m.companySuspended && (
            <Chip size="small" color="warning" label={t('admin.users.companySuspended')} />
          )}
        </Stack>
      ),
      csv: (m) => m.companyName ?? '',
    },
    {
      id: 'plan',
      label: t('admin.users.plan'),
      render: (m) => (m.plan ? t(`plans.${m.plan}`) : '—'),
      csv: (m) => (m.plan ? t(`plans.${m.plan}`) : ''),
    },
    {
      id: 'status',
      label: t('admin.users.status'),
      render: (m) => <DataManagerStatusChip status={m.status} />,
      csv: (m) => t(`admin.users.statuses.${m.status}`),
    },
    { id: 'storage', label: t('admin.users.storage'), csv: (m) => format.size(m.storageBytes) },
    {
      id: 'lastSignIn',
      label: t('admin.users.lastSignIn'),
      render: (m) => (m.lastSignInAt ? format.dateTime(m.lastSignInAt) : t('admin.users.never')),
      csv: (m) => (m.lastSignInAt ? format.dateTime(m.lastSignInAt) : ''),
    },
    { id: 'createdAt', label: t('admin.users.added'), csv: (m) => format.dateTime(m.createdAt) },
    {
      id: 'open',
      label: t('common.actions'),
      align: 'right',
      render: (m) => (
        <OpenButton to={`/admin/users/data-manager/${m.id}`} label={`${t('common.open')}: ${m.email}`} />
      ),
    },
  ];

  return (
    <ListPage<DataManager>
      title={t('admin.users.dataManagers.title')}
      source={table}
      columns={columns}
      rowKey={(m) => m.id}
      csvName="data-managers"
      emptyText={userEmptyText(t, t('admin.users.empty'))}
      defaultSort="-createdAt"
      filters={
        <SelectField
          id="data-manager-status"
          label={t('admin.users.status')}
          value={status}
          onChange={(v) => setStatus(v as DataManagerStatus | '')}
          options={[
            { value: '', label: t('admin.users.allStatuses') },
            ...DATA_MANAGER_STATUSES.map((s) => ({ value: s, label: t(`admin.users.statuses.${s}`) })),
          ]}
        />
      }
      actions={
        // Staff read the list; only who may add data managers sees the buttons that would end in 403.
        mayAdd && (
          <>
            <Button
              variant="outlined"
              startIcon={<IconUpload size={18} />}
              onClick={() => setImporting(true)}
            >
              {t('admin.users.importButton')}
            </Button>
            <Button variant="contained" startIcon={<IconPlus size={18} />} onClick={() => setAdding(true)}>
              {t('admin.users.add')}
            </Button>
          </>
        )
      }
    >
      <FormDialog
        open={adding}
        onClose={() => setAdding(false)}
        title={t('admin.users.add')}
        intro={t('admin.users.addIntro')}
        formId="add-data-manager"
        submitLabel={t('admin.users.invite')}
        pending={create.isPending}
      >
        {adding && <DataManagerForm formId="add-data-manager" onSave={add} />}
      </FormDialog>
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        title={t('admin.users.importTitle')}
        intro={t('admin.users.importIntro', {
          columns: importHeaders(DATA_MANAGER_CSV_COLUMNS, t).join(', '),
        })}
        columns={DATA_MANAGER_CSV_COLUMNS}
        template={{
          name: 'data-managers-template.csv',
          row: ['dana@firma.example', 'Dana', 'Berg', '+49 151 2345678', 'de', 'Berg Sanitär GmbH'],
        }}
        useImport={useImportDataManagers}
      />
    </ListPage>
  );
}
