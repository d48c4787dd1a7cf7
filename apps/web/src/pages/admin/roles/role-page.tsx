import {
  Alert,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { IconRestore } from '@tabler/icons-react';
import {
  type AbilityRule,
  COMPANY_ROLE_KINDS,
  type Role,
  type RoleHolder,
  updateRoleBodySchema,
} from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../api/http.ts';
import { roleHolderTable, useResetRole, useRole, useUpdateRole } from '../../../api/roles.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { CellText } from '../../../components/cell-text.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { applyFieldErrors, errorMessage, InputField } from '../../../components/form.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSchemaForm } from '../../../components/schema-form.ts';
import { PermissionMatrix } from './permission-matrix.tsx';
import { roleName } from './role-name.ts';

/** `/admin/roles/:roleId`: a role's name, its permission matrix and who holds it. */
export default function RolePage() {
  const { t } = useTranslation();
  const roleId = matchPath('/admin/roles/:roleId', useLocation().pathname)?.params.roleId ?? '';
  const wellFormed = z.uuid().safeParse(roleId).success;
  const query = useRole(roleId, { enabled: wellFormed });
  const notFound = !wellFormed || (query.error instanceof ApiError && query.error.status === 404);
  const role = query.data;

  return (
    <Stack spacing={6}>
      <Stack direction="row" spacing={3} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <PageHeader title={role ? roleName(t, role) : t('admin.roles.editTitle')} />
        {role && (
          <Chip
            size="small"
            variant="outlined"
            color={role.isSystem ? 'primary' : 'default'}
            label={t(role.isSystem ? 'admin.roles.system' : 'admin.roles.custom')}
          />
        )}
      </Stack>
      {query.isError && !notFound && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {notFound ? (
        <Stack spacing={4} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="warning">{t('admin.roles.notFound')}</Alert>
          <Button component={Link} to="/admin/roles" variant="contained">
            {t('admin.roles.backToList')}
          </Button>
        </Stack>
      ) : role ? (
        <RoleEditor key={`${role.id}:${role.updatedAt}`} role={role} />
      ) : (
        !query.isError && <Skeleton variant="rounded" height={480} />
      )}
    </Stack>
  );
}

function RoleEditor({ role }: { role: Role }) {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const readOnly = role.heldByCaller || !ability.can('update', 'Role');
  const [rules, setRules] = useState<AbilityRule[]>(role.rules);
  const [resetting, setResetting] = useState(false);
  const changed = JSON.stringify(rules) !== JSON.stringify(role.rules);
  const save = useUpdateRole();
  const reset = useResetRole({ onSettled: () => setResetting(false) });

  return (
    <>
      {role.heldByCaller && <Alert severity="info">{t('admin.roles.ownRole')}</Alert>}
      <DetailsCard role={role} readOnly={readOnly} />
      <Card>
        <CardHeader
          title={t('admin.roles.permissions')}
          subheader={t('admin.roles.permissionsHelp')}
          slotProps={{ title: { component: 'h2', variant: 'h6' } }}
        />
        <CardContent>
          <PermissionMatrix
            rules={rules}
            companyRole={Boolean(role.kind && COMPANY_ROLE_KINDS.includes(role.kind))}
            readOnly={readOnly}
            onChange={setRules}
          />
          {!readOnly && (
            <Stack direction="row" spacing={3} sx={{ mt: 4, flexWrap: 'wrap', gap: 2 }}>
              <Button
                variant="contained"
                disabled={!changed || save.isPending}
                onClick={() => save.mutate({ roleId: role.id, body: { rules } })}
              >
                {t('admin.roles.savePermissions')}
              </Button>
              <Button disabled={!changed} onClick={() => setRules(role.rules)}>
                {t('admin.roles.discard')}
              </Button>
              {role.isSystem && (
                <Button
                  color="warning"
                  startIcon={<IconRestore size={18} />}
                  onClick={() => setResetting(true)}
                  sx={{ marginInlineStart: 'auto' }}
                >
                  {t('admin.roles.reset')}
                </Button>
              )}
            </Stack>
          )}
        </CardContent>
      </Card>
      <HoldersCard roleId={role.id} />
      <ConfirmDialog
        open={resetting}
        title={t('admin.roles.resetTitle')}
        text={t('admin.roles.resetText', { name: roleName(t, role) })}
        confirmLabel={t('admin.roles.reset')}
        pending={reset.isPending}
        onConfirm={() => reset.mutate(role.id)}
        onClose={() => setResetting(false)}
      />
    </>
  );
}

const detailsSchema = z.object({
  name: updateRoleBodySchema.shape.name.unwrap(),
  description: updateRoleBodySchema.shape.description.unwrap(),
});

function DetailsCard({ role, readOnly }: { role: Role; readOnly: boolean }) {
  const { t } = useTranslation();
  const form = useSchemaForm(detailsSchema, {
    defaultValues: { name: role.kind ? roleName(t, role) : role.name, description: role.description },
  });
  const save = useUpdateRole({
    claimError: (error) => applyFieldErrors(error, form.setError, ['name', 'description']),
  });
  const onSubmit = form.handleSubmit(({ name, description }) =>
    save.mutate({ roleId: role.id, body: role.isSystem ? { description } : { name, description } }),
  );
  const { errors } = form.formState;
  return (
    <Card>
      <CardContent>
        <Stack
          component="form"
          spacing={4}
          noValidate
          onSubmit={onSubmit}
          aria-label={t('admin.roles.details')}
        >
          <InputField
            {...form.register('name')}
            label={t('admin.roles.name')}
            disabled={readOnly || role.isSystem}
            helperText={role.isSystem ? t('admin.roles.systemName') : undefined}
            errorKey={errors.name?.message}
          />
          <InputField
            {...form.register('description')}
            label={t('admin.roles.description')}
            multiline
            minRows={2}
            disabled={readOnly}
            errorKey={errors.description?.message}
          />
          {!readOnly && (
            <Button
              type="submit"
              variant="outlined"
              disabled={save.isPending}
              sx={{ alignSelf: 'flex-start' }}
            >
              {t('common.save')}
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

function HoldersCard({ roleId }: { roleId: string }) {
  const { t } = useTranslation();
  const table = roleHolderTable(roleId);
  const columns: Column<RoleHolder>[] = [
    {
      id: 'name',
      label: t('admin.roles.holderName'),
      render: (h) => <CellText text={`${h.firstName} ${h.lastName}`} maxWidth={220} />,
      csv: (h) => `${h.firstName} ${h.lastName}`,
    },
    {
      id: 'email',
      label: t('fields.email'),
      fill: true,
      render: (h) => <CellText text={h.email} />,
      csv: (h) => h.email,
    },
    {
      id: 'kind',
      label: t('admin.roles.userKind'),
      render: (h) => t(`roles.${h.kind}`),
      csv: (h) => t(`roles.${h.kind}`),
    },
    {
      id: 'company',
      label: t('admin.roles.company'),
      render: (h) => <CellText text={h.companyName ?? '—'} maxWidth={200} />,
      csv: (h) => h.companyName ?? '',
    },
    {
      id: 'active',
      label: t('admin.staff.status'),
      render: (h) => (
        <Chip
          size="small"
          color={h.active ? 'success' : 'default'}
          label={t(h.active ? 'admin.roles.holderActive' : 'admin.staff.statuses.deactivated')}
        />
      ),
      csv: (h) => t(h.active ? 'admin.roles.holderActive' : 'admin.staff.statuses.deactivated'),
    },
  ];
  return (
    <Stack spacing={3}>
      <Typography variant="h6" component="h2">
        {t('admin.roles.holders')}
      </Typography>
      <DataTable<RoleHolder>
        queryKey={table.queryKey}
        fetchPage={table.fetchPage}
        columns={columns}
        rowKey={(h) => h.id}
        csvName="role-holders"
        caption={t('admin.roles.holders')}
        emptyText={t('admin.roles.noHolders')}
      />
    </Stack>
  );
}
