import { Button, Chip, IconButton, Stack } from '@mui/material';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { type AbilityRule, createRoleBodySchema, type Role } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { roleTable, useCreateRole, useDeleteRole } from '../../../api/roles.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { CellText } from '../../../components/cell-text.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { applyFieldErrors, InputField } from '../../../components/form.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ListPage } from '../../../components/list-page.tsx';
import { useSchemaForm } from '../../../components/schema-form.ts';
import { roleName } from './role-name.ts';

/** A new custom role opens the back office (sign-in, dashboard, profile); the matrix adds the rest. */
const NEW_ROLE_RULES: AbilityRule[] = [{ action: 'read', subject: 'admin' }];

/** `/admin/roles`: the roles with how many users hold each; custom roles for staff are added and deleted here. */
export default function RolesPage() {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const remove = useDeleteRole({ onSettled: () => setDeleting(null) });

  const columns: Column<Role>[] = [
    {
      id: 'name',
      label: t('admin.roles.name'),
      sortable: true,
      render: (r) => (
        <Link to={`/admin/roles/${r.id}`}>
          <CellText text={roleName(t, r)} maxWidth={240} />
        </Link>
      ),
      csv: (r) => roleName(t, r),
    },
    {
      id: 'type',
      label: t('admin.roles.type'),
      render: (r) => (
        <Chip
          size="small"
          variant="outlined"
          color={r.isSystem ? 'primary' : 'default'}
          label={t(r.isSystem ? 'admin.roles.system' : 'admin.roles.custom')}
        />
      ),
      csv: (r) => t(r.isSystem ? 'admin.roles.system' : 'admin.roles.custom'),
    },
    {
      id: 'description',
      label: t('admin.roles.description'),
      fill: true,
      minWidth: 200,
      render: (r) => <CellText text={r.description} lines={2} />,
      csv: (r) => r.description,
    },
    {
      id: 'holderCount',
      label: t('admin.roles.holders'),
      sortable: true,
      align: 'right',
      render: (r) => r.holderCount,
      csv: (r) => r.holderCount,
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (r) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <IconButton
            component={Link}
            to={`/admin/roles/${r.id}`}
            aria-label={`${t('common.edit')}: ${roleName(t, r)}`}
          >
            <IconEdit size={20} />
          </IconButton>
          {!r.isSystem && ability.can('delete', 'Role') && (
            <IconButton
              aria-label={`${t('common.delete')}: ${roleName(t, r)}`}
              disabled={r.holderCount > 0}
              onClick={() => setDeleting(r)}
            >
              <IconTrash size={20} />
            </IconButton>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <ListPage<Role>
      title={t('admin.roles.title')}
      source={roleTable}
      columns={columns}
      rowKey={(r) => r.id}
      csvName="roles"
      emptyText={t('admin.roles.empty')}
      defaultSort="name"
      actions={
        ability.can('create', 'Role') && (
          <Button variant="contained" startIcon={<IconPlus size={18} />} onClick={() => setAdding(true)}>
            {t('admin.roles.add')}
          </Button>
        )
      }
    >
      <AddRoleDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.roles.deleteTitle')}
        text={t('admin.roles.deleteText', { name: deleting ? roleName(t, deleting) : '' })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </ListPage>
  );
}

const addSchema = createRoleBodySchema.pick({ name: true, description: true });

function AddRoleDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useSchemaForm(addSchema, {
    defaultValues: { name: '', description: '' },
  });
  const create = useCreateRole({
    onSuccess: (role) => {
      onClose();
      form.reset();
      navigate(`/admin/roles/${role.id}`);
    },
    claimError: (error) => applyFieldErrors(error, form.setError, ['name', 'description']),
  });
  const onSubmit = form.handleSubmit((values) => create.mutate({ ...values, rules: NEW_ROLE_RULES }));
  const { errors } = form.formState;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('admin.roles.add')}
      intro={t('admin.roles.addIntro')}
      formId="add-role"
      submitLabel={t('common.create')}
      pending={create.isPending}
    >
      <Stack component="form" id="add-role" spacing={4} noValidate onSubmit={onSubmit} sx={{ pt: 2 }}>
        <InputField
          {...form.register('name')}
          label={t('admin.roles.name')}
          errorKey={errors.name?.message}
        />
        <InputField
          {...form.register('description')}
          label={t('admin.roles.description')}
          multiline
          minRows={2}
          errorKey={errors.description?.message}
        />
      </Stack>
    </FormDialog>
  );
}
