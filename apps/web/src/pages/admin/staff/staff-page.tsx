import { Button, Chip, IconButton, Stack, Tooltip } from '@mui/material';
import { IconEdit, IconMailForward, IconPlus } from '@tabler/icons-react';
import { inviteStaffBodySchema, type Language, STAFF_STATUSES, type StaffMember } from '@werkwissen/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { staffTable, useInviteStaff, useResendStaffInvitation } from '../../../api/staff.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { CellText } from '../../../components/cell-text.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { applyFieldErrors, InputField } from '../../../components/form.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useFormat } from '../../../components/format.ts';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { ListPage } from '../../../components/list-page.tsx';
import { useSchemaForm } from '../../../components/schema-form.ts';
import { SelectField } from '../../../components/select-field.tsx';
import { roleName } from '../roles/role-name.ts';
import { RolePicker } from './role-picker.tsx';
import { StaffStatus } from './staff-status.tsx';

/** `/admin/staff`: the operator's administrators and staff with role, status and last sign-in; invite by mail. */
export default function StaffPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { ability } = useAuth();
  const [status, setStatus] = useState('');
  const [inviting, setInviting] = useState(false);
  const resend = useResendStaffInvitation();
  const table = staffTable(status);
  const mayChange = ability.can('update', 'User');

  const columns: Column<StaffMember>[] = [
    {
      id: 'lastName',
      label: t('admin.staff.name'),
      sortable: true,
      render: (m) => (
        <Link to={`/admin/staff/${m.id}`}>
          <CellText text={`${m.firstName} ${m.lastName}`} lines={2} maxWidth={220} />
        </Link>
      ),
      csv: (m) => `${m.firstName} ${m.lastName}`,
    },
    {
      id: 'email',
      label: t('fields.email'),
      sortable: true,
      fill: true,
      minWidth: 180,
      render: (m) => <CellText text={m.email} />,
      csv: (m) => m.email,
    },
    {
      id: 'roles',
      label: t('admin.staff.roles'),
      render: (m) => (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {m.roles.map((r) => (
            <Chip key={r.id} label={roleName(t, r)} size="small" variant="outlined" sx={{ maxWidth: 180 }} />
          ))}
        </Stack>
      ),
      csv: (m) => m.roles.map((r) => roleName(t, r)).join('; '),
    },
    {
      id: 'status',
      label: t('admin.staff.status'),
      render: (m) => <StaffStatus status={m.status} />,
      csv: (m) => t(`admin.staff.statuses.${m.status}`),
    },
    {
      id: 'lastSignInAt',
      label: t('admin.staff.lastSignIn'),
      sortable: true,
      render: (m) => (m.lastSignInAt ? format.dateTime(m.lastSignInAt) : t('admin.staff.never')),
      csv: (m) => m.lastSignInAt ?? '',
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (m) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          {mayChange && m.status === 'invited' && (
            <Tooltip title={t('admin.staff.resend')}>
              <IconButton
                aria-label={`${t('admin.staff.resend')}: ${m.email}`}
                onClick={() => resend.mutate(m.id)}
              >
                <IconMailForward size={20} />
              </IconButton>
            </Tooltip>
          )}
          <IconButton
            component={Link}
            to={`/admin/staff/${m.id}`}
            aria-label={`${t('common.edit')}: ${m.email}`}
          >
            <IconEdit size={20} />
          </IconButton>
        </Stack>
      ),
    },
  ];

  return (
    <ListPage<StaffMember>
      title={t('admin.staff.title')}
      source={table}
      columns={columns}
      rowKey={(m) => m.id}
      csvName="staff"
      emptyText={t('admin.staff.empty')}
      defaultSort="lastName"
      filters={
        <SelectField
          id="staff-status"
          label={t('admin.staff.status')}
          value={status}
          onChange={setStatus}
          options={[
            { value: '', label: t('admin.staff.allStatuses') },
            ...STAFF_STATUSES.map((s) => ({ value: s, label: t(`admin.staff.statuses.${s}`) })),
          ]}
        />
      }
      actions={
        ability.can('create', 'User') && (
          <Button variant="contained" startIcon={<IconPlus size={18} />} onClick={() => setInviting(true)}>
            {t('admin.staff.invite')}
          </Button>
        )
      }
    >
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
    </ListPage>
  );
}

function InviteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const form = useSchemaForm(inviteStaffBodySchema, {
    defaultValues: {
      email: '',
      firstName: '',
      lastName: '',
      language: (i18n.language as Language) || 'de',
      roleIds: [],
    },
  });
  const invite = useInviteStaff({
    onSuccess: () => {
      onClose();
      form.reset();
    },
    claimError: (error) =>
      applyFieldErrors(error, form.setError, ['email', 'firstName', 'lastName', 'language', 'roleIds']),
  });
  const onSubmit = form.handleSubmit((values) => invite.mutate(values));
  const { errors } = form.formState;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('admin.staff.invite')}
      intro={t('admin.staff.inviteIntro')}
      formId="invite-staff"
      submitLabel={t('admin.staff.sendInvitation')}
      pending={invite.isPending}
    >
      <Stack component="form" id="invite-staff" spacing={4} noValidate onSubmit={onSubmit} sx={{ pt: 2 }}>
        <InputField
          {...form.register('email')}
          label={t('fields.email')}
          type="email"
          errorKey={errors.email?.message}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
          <InputField
            {...form.register('firstName')}
            label={t('fields.firstName')}
            errorKey={errors.firstName?.message}
          />
          <InputField
            {...form.register('lastName')}
            label={t('fields.lastName')}
            errorKey={errors.lastName?.message}
          />
        </Stack>
        <LanguageSelect control={form.control} name="language" errorKey={errors.language?.message} />
        <Controller
          name="roleIds"
          control={form.control}
          render={({ field }) => (
            <RolePicker value={field.value} onChange={field.onChange} errorKey={errors.roleIds?.message} />
          )}
        />
      </Stack>
    </FormDialog>
  );
}
