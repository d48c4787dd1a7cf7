import { Alert, Button, Card, CardContent, CardHeader, Skeleton, Stack } from '@mui/material';
import { IconMailForward, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { type StaffMember, updateStaffBodySchema } from '@werkwissen/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../api/http.ts';
import {
  useDeactivateStaff,
  useDeleteStaff,
  useReactivateStaff,
  useResendStaffInvitation,
  useStaffMember,
  useUpdateStaff,
} from '../../../api/staff.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { applyFieldErrors, errorMessage, InputField } from '../../../components/form.tsx';
import { useFormat } from '../../../components/format.ts';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ResetTwoFactorButton } from '../../../components/reset-two-factor-button.tsx';
import { useSchemaForm } from '../../../components/schema-form.ts';
import { RolePicker } from './role-picker.tsx';
import { StaffStatus } from './staff-status.tsx';

/** `/admin/staff/:staffId`: one administrator or staff member: details, roles, deactivate, delete. */
export default function StaffMemberPage() {
  const { t } = useTranslation();
  const staffId = matchPath('/admin/staff/:staffId', useLocation().pathname)?.params.staffId ?? '';
  const wellFormed = z.uuid().safeParse(staffId).success;
  const query = useStaffMember(staffId, { enabled: wellFormed });
  const notFound = !wellFormed || (query.error instanceof ApiError && query.error.status === 404);

  return (
    <Stack spacing={6}>
      <PageHeader
        title={query.data ? `${query.data.firstName} ${query.data.lastName}` : t('admin.staff.memberTitle')}
      />
      {query.isError && !notFound && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {notFound ? (
        <Stack spacing={4} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="warning">{t('admin.staff.notFound')}</Alert>
          <Button component={Link} to="/admin/staff" variant="contained">
            {t('admin.staff.backToList')}
          </Button>
        </Stack>
      ) : query.data ? (
        <MemberEditor key={query.data.id} member={query.data} />
      ) : (
        !query.isError && <Skeleton variant="rounded" height={360} />
      )}
    </Stack>
  );
}

const schema = z.object({
  firstName: updateStaffBodySchema.shape.firstName.unwrap(),
  lastName: updateStaffBodySchema.shape.lastName.unwrap(),
  language: updateStaffBodySchema.shape.language.unwrap(),
  roleIds: updateStaffBodySchema.shape.roleIds.unwrap(),
});

function MemberEditor({ member }: { member: StaffMember }) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const auth = useAuth();
  const self = auth.session?.userData.id === member.id;
  const mayChange = auth.ability.can('update', 'User');
  const [confirm, setConfirm] = useState<'deactivate' | 'delete' | null>(null);
  const form = useSchemaForm(schema, {
    defaultValues: {
      firstName: member.firstName,
      lastName: member.lastName,
      language: member.language,
      roleIds: member.roles.map((r) => r.id),
    },
  });
  const update = useUpdateStaff({
    claimError: (error) =>
      applyFieldErrors(error, form.setError, ['firstName', 'lastName', 'language', 'roleIds']),
  });
  const deactivate = useDeactivateStaff({ onSettled: () => setConfirm(null) });
  const reactivate = useReactivateStaff();
  const resend = useResendStaffInvitation();
  const remove = useDeleteStaff({
    onSuccess: () => navigate('/admin/staff'),
    onSettled: () => setConfirm(null),
  });
  const onSubmit = form.handleSubmit((values) => update.mutate({ staffId: member.id, body: values }));
  const { errors } = form.formState;

  return (
    <>
      <Card>
        <CardHeader
          title={member.email}
          subheader={
            member.lastSignInAt
              ? t('admin.staff.lastSignInAt', { time: format.dateTime(member.lastSignInAt) })
              : t('admin.staff.neverSignedIn')
          }
          action={<StaffStatus status={member.status} />}
          slotProps={{ title: { component: 'h2', variant: 'h6', dir: 'ltr' } }}
        />
        <CardContent>
          <Stack
            component="form"
            spacing={4}
            noValidate
            onSubmit={onSubmit}
            aria-label={t('admin.staff.details')}
          >
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
              <InputField
                {...form.register('firstName')}
                label={t('fields.firstName')}
                disabled={!mayChange}
                errorKey={errors.firstName?.message}
              />
              <InputField
                {...form.register('lastName')}
                label={t('fields.lastName')}
                disabled={!mayChange}
                errorKey={errors.lastName?.message}
              />
            </Stack>
            <LanguageSelect control={form.control} name="language" errorKey={errors.language?.message} />
            <Controller
              name="roleIds"
              control={form.control}
              render={({ field }) => (
                <RolePicker
                  value={field.value}
                  onChange={field.onChange}
                  disabled={!mayChange || self}
                  errorKey={errors.roleIds?.message}
                />
              )}
            />
            {self && <Alert severity="info">{t('admin.staff.ownRoles')}</Alert>}
            {mayChange && (
              <Button
                type="submit"
                variant="contained"
                disabled={update.isPending}
                sx={{ alignSelf: 'flex-start' }}
              >
                {t('common.save')}
              </Button>
            )}
          </Stack>
        </CardContent>
      </Card>
      {mayChange && !self && (
        <Card>
          <CardHeader
            title={t('admin.staff.access')}
            slotProps={{ title: { component: 'h2', variant: 'h6' } }}
          />
          <CardContent>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 3 }}>
              {member.status === 'invited' && (
                <Button
                  startIcon={<IconMailForward size={18} />}
                  variant="outlined"
                  onClick={() => resend.mutate(member.id)}
                >
                  {t('admin.staff.resend')}
                </Button>
              )}
              {member.status === 'deactivated' ? (
                <Button
                  startIcon={<IconPlayerPlay size={18} />}
                  variant="outlined"
                  disabled={reactivate.isPending}
                  onClick={() => reactivate.mutate(member.id)}
                >
                  {t('admin.staff.reactivate')}
                </Button>
              ) : (
                <Button
                  startIcon={<IconPlayerPause size={18} />}
                  variant="outlined"
                  color="warning"
                  onClick={() => setConfirm('deactivate')}
                >
                  {t('admin.staff.deactivate')}
                </Button>
              )}
              <ResetTwoFactorButton userId={member.id} email={member.email} />
              {auth.ability.can('delete', 'User') && (
                <Button
                  startIcon={<IconTrash size={18} />}
                  variant="outlined"
                  color="error"
                  onClick={() => setConfirm('delete')}
                >
                  {t('common.delete')}
                </Button>
              )}
            </Stack>
          </CardContent>
        </Card>
      )}
      <ConfirmDialog
        open={confirm === 'deactivate'}
        title={t('admin.staff.deactivateTitle')}
        text={t('admin.staff.deactivateText', { email: member.email })}
        confirmLabel={t('admin.staff.deactivate')}
        pending={deactivate.isPending}
        onConfirm={() => deactivate.mutate(member.id)}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title={t('admin.staff.deleteTitle')}
        text={t('admin.staff.deleteText', { email: member.email })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(member.id)}
        onClose={() => setConfirm(null)}
      />
    </>
  );
}
