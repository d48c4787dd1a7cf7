import { Button, Chip, IconButton, Stack, Tooltip } from '@mui/material';
import {
  IconCircleCheck,
  IconEdit,
  IconMail,
  IconMailForward,
  IconPlus,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { EMPLOYEE_CSV_COLUMNS, type Employee } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  employeeTable,
  useCreateEmployee,
  useDeleteEmployee,
  useImportEmployees,
  useResendInvitation,
} from '../../api/employees.ts';
import { CellText } from '../../components/cell-text.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { ImportDialog, importHeaders } from '../../components/import-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { usePlanRoom } from '../../components/plan-limit-note.tsx';
import { EmployeeForm, type EmployeeValues } from './employee-form.tsx';

/** `/employee-add`: the company's employees; add (the invitation goes by mail), edit, delete, export. */
export default function EmployeesPage() {
  const { t } = useTranslation();
  const room = usePlanRoom('employees');
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<Employee | null>(null);
  const create = useCreateEmployee({ onSuccess: () => setAdding(false) });
  const resend = useResendInvitation();
  const remove = useDeleteEmployee({ onSettled: () => setDeleting(null) });

  // The form puts the server's field errors on its fields (the snackbar says what failed as well).
  const add = async (values: EmployeeValues) => {
    await create.mutateAsync({ ...values, phone: values.phone || undefined });
  };

  const columns: Column<Employee>[] = [
    {
      id: 'lastName',
      label: t('pages.employees.name'),
      sortable: true,
      render: (e) => <CellText text={`${e.firstName} ${e.lastName}`} lines={2} maxWidth={220} />,
    },
    // The export's columns are the import's, under the same headers: an exported file imports again.
    { id: 'firstName', label: t(EMPLOYEE_CSV_COLUMNS.firstName), csv: (e) => e.firstName },
    { id: 'lastNameCsv', label: t(EMPLOYEE_CSV_COLUMNS.lastName), csv: (e) => e.lastName },
    {
      id: 'email',
      label: t(EMPLOYEE_CSV_COLUMNS.email),
      sortable: true,
      fill: true,
      minWidth: 180,
      render: (e) => <CellText text={e.email} />,
      csv: (e) => e.email,
    },
    { id: 'phone', label: t(EMPLOYEE_CSV_COLUMNS.phone), csv: (e) => e.phone ?? '' },
    { id: 'language', label: t(EMPLOYEE_CSV_COLUMNS.language), csv: (e) => e.language },
    {
      id: 'divisions',
      label: t(EMPLOYEE_CSV_COLUMNS.divisions),
      render: (e) => (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {e.divisions.map((d) => (
            <Chip
              key={d.id}
              label={d.name}
              title={d.name}
              size="small"
              variant="outlined"
              sx={{ maxWidth: 180 }}
            />
          ))}
        </Stack>
      ),
      csv: (e) => e.divisions.map((d) => d.name).join(' | '),
    },
    {
      id: 'status',
      label: t('pages.employees.status'),
      render: (e) => (
        <Chip
          size="small"
          color={e.status === 'active' ? 'success' : 'default'}
          icon={e.status === 'active' ? <IconCircleCheck size={16} /> : <IconMail size={16} />}
          label={t(`pages.employees.statuses.${e.status}`)}
        />
      ),
      csv: (e) => t(`pages.employees.statuses.${e.status}`),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (e) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          {e.status === 'invited' && (
            <Tooltip title={t('pages.employees.resend')}>
              <IconButton
                aria-label={`${t('pages.employees.resend')}: ${e.email}`}
                onClick={() => resend.mutate(e.id)}
              >
                <IconMailForward size={20} />
              </IconButton>
            </Tooltip>
          )}
          <IconButton
            component={Link}
            to={`/employee-add/${e.id}`}
            aria-label={`${t('common.edit')}: ${e.email}`}
          >
            <IconEdit size={20} />
          </IconButton>
          <IconButton aria-label={`${t('common.delete')}: ${e.email}`} onClick={() => setDeleting(e)}>
            <IconTrash size={20} />
          </IconButton>
        </Stack>
      ),
    },
  ];

  return (
    <Stack spacing={6}>
      <PageHeader title={t('pages.employees.title')} />
      {room.note}
      <DataTable<Employee>
        queryKey={employeeTable.queryKey}
        fetchPage={employeeTable.fetchPage}
        columns={columns}
        rowKey={(e) => e.id}
        csvName="employees"
        caption={t('pages.employees.title')}
        emptyText={t('pages.employees.empty')}
        defaultSort="lastName"
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<IconUpload size={18} />}
              disabled={room.full}
              onClick={() => setImporting(true)}
            >
              {t('pages.employees.import.button')}
            </Button>
            <Button
              variant="contained"
              startIcon={<IconPlus size={18} />}
              disabled={room.full}
              onClick={() => setAdding(true)}
            >
              {t('pages.employees.add')}
            </Button>
          </>
        }
      />
      <FormDialog
        open={adding}
        onClose={() => setAdding(false)}
        title={t('pages.employees.add')}
        intro={t('pages.employees.addIntro')}
        formId="add-employee"
        submitLabel={t('pages.employees.invite')}
      >
        {adding && <EmployeeForm formId="add-employee" onSave={add} />}
      </FormDialog>
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        title={t('pages.employees.import.title')}
        intro={t('pages.employees.import.intro', {
          columns: importHeaders(EMPLOYEE_CSV_COLUMNS, t).join(', '),
        })}
        columns={EMPLOYEE_CSV_COLUMNS}
        template={{
          name: 'employees-template.csv',
          row: ['anna@firma.example', 'Anna', 'Schmidt', '+49 151 2345678', 'de', ''],
        }}
        useImport={useImportEmployees}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('pages.employees.deleteTitle')}
        text={t('pages.employees.deleteText', { email: deleting?.email })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
