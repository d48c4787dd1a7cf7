import { Alert, Button, Chip, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { IconEdit, IconEye, IconTrash, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { HOME_BY_KIND, IMPERSONATION_MINUTES } from '@werkwissen/shared';
import { formatPhone } from '@werkwissen/shared/phone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  useDataManager,
  useImpersonation,
  useSetDataManagerActive,
  useUpdateDataManager,
} from '../../api/admin-people.ts';
import { ApiError } from '../../api/http.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { DataManagerForm, type DataManagerValues } from './data-manager-form.tsx';
import { DataManagerStatusChip } from './data-manager-status.tsx';
import { DeleteDataManagerDialog } from './delete-data-manager-dialog.tsx';
import { DetailSection, DetailTable, Facts } from './detail-section.tsx';

const LIST = '/admin/users/data-manager';

/**
 * `/admin/users/data-manager/:id`: one data manager with company, plan, storage, divisions, recent sign-ins and
 * activity; edit, view as them, deactivate or reactivate, delete with their company.
 */
export default function DataManagerDetailPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const auth = useAuth();
  const navigate = useNavigate();
  // The router has one route (the guard picks the page), so the id comes from the address itself.
  const id = matchPath(`${LIST}/:id`, useLocation().pathname)?.params.id ?? '';
  const wellFormed = z.uuid().safeParse(id).success;
  const query = useDataManager(id, { enabled: wellFormed });
  const notFound = !wellFormed || (query.error instanceof ApiError && query.error.status === 404);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'deactivate' | 'delete' | null>(null);
  const [viewing, setViewing] = useState<{ id: string; name: string } | null>(null);
  const update = useUpdateDataManager({ onSuccess: () => setEditing(false) });
  const setActive = useSetDataManagerActive({ onSettled: () => setConfirm(null) });
  const viewAs = useImpersonation({
    onSuccess: (me) => {
      auth.signIn(me);
      // A whole page load: nothing loaded for the operator stays in memory.
      window.location.assign(HOME_BY_KIND[me.userRole]);
    },
    onSettled: () => setViewing(null),
  });
  const dm = query.data;

  const save = async ({ email: _email, ...values }: DataManagerValues) => {
    await update.mutateAsync({ id, body: { ...values, phone: values.phone || null } });
  };

  if (notFound) {
    return (
      <Stack spacing={4} sx={{ alignItems: 'flex-start' }}>
        <PageHeader title={t('admin.users.detailTitle')} />
        <Alert severity="warning">{t('admin.users.notFound')}</Alert>
        <Button component={Link} to={LIST} variant="contained">
          {t('admin.users.backToList')}
        </Button>
      </Stack>
    );
  }
  if (!dm) {
    return query.isError ? (
      <Alert severity="error">{errorMessage(query.error, t)}</Alert>
    ) : (
      <Skeleton variant="rounded" height={360} />
    );
  }

  const name = `${dm.firstName} ${dm.lastName}`;
  // Only an active user of an active company can be viewed as (the server checks it too).
  const mayViewAs = auth.ability.can('create', 'Impersonation') && !dm.company.suspendedAt;
  // Staff read data managers: what their rules forbid is not offered (it would end in 403).
  const mayUpdate = auth.ability.can('update', 'User');
  const mayDelete = auth.ability.can('delete', 'User');
  const canViewAs = mayViewAs && dm.status === 'active';
  return (
    <Stack spacing={6}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { md: 'center' } }}>
        <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h4" component="h1" dir="auto" sx={{ overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
            <Typography color="text.secondary" dir="ltr">
              {dm.email}
            </Typography>
            <DataManagerStatusChip status={dm.status} />
          </Stack>
        </Stack>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
          {mayUpdate && (
            <Button variant="outlined" startIcon={<IconEdit size={18} />} onClick={() => setEditing(true)}>
              {t('common.edit')}
            </Button>
          )}
          {canViewAs && (
            <Button
              variant="contained"
              startIcon={<IconEye size={18} />}
              onClick={() => setViewing({ id, name })}
            >
              {t('admin.impersonation.start')}
            </Button>
          )}
        </Stack>
      </Stack>
      {dm.company.suspendedAt && (
        <Alert severity="warning">
          {t('admin.companies.suspendedSince', {
            date: format.dateTime(dm.company.suspendedAt),
            reason: dm.company.suspendedReason ?? '',
          })}
        </Alert>
      )}
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, md: 6 }}>
          <DetailSection title={t('admin.users.contact')}>
            <Facts
              items={[
                [
                  t('fields.email'),
                  <span key="email" dir="ltr">
                    {dm.email}
                  </span>,
                ],
                [
                  t('admin.users.phone'),
                  dm.phone ? (
                    <span key="phone" dir="ltr">
                      {formatPhone(dm.phone)}
                    </span>
                  ) : (
                    '—'
                  ),
                ],
                [t('admin.users.language'), format.language(dm.language)],
                [t('admin.users.added'), format.dateTime(dm.createdAt)],
                [
                  t('admin.users.lastSignIn'),
                  dm.lastSignInAt ? format.dateTime(dm.lastSignInAt) : t('admin.users.never'),
                ],
              ]}
            />
          </DetailSection>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <DetailSection title={t('admin.users.company')}>
            <Facts
              items={[
                [t('admin.users.companyName'), dm.company.name ?? t('admin.companies.unnamed')],
                [
                  t('admin.users.plan'),
                  dm.subscription
                    ? `${t(`plans.${dm.subscription.plan}`)} (${t('admin.users.planEnds', {
                        status: t(`plans.status.${dm.subscription.status}`),
                        date: format.dateTime(dm.subscription.endsAt),
                      })})`
                    : '—',
                ],
                [
                  t('admin.users.storage'),
                  t('admin.users.storageOf', {
                    used: format.size(dm.storage.usedBytes),
                    limit: format.size(dm.storage.limitBytes),
                  }),
                ],
                [t('admin.users.employees'), format.number(dm.employees)],
                [
                  t('admin.users.status'),
                  dm.company.suspendedAt ? (
                    <Chip
                      key="suspended"
                      size="small"
                      color="warning"
                      label={t('admin.companies.suspendedStatus')}
                    />
                  ) : (
                    t('admin.companies.active')
                  ),
                ],
              ]}
            />
          </DetailSection>
        </Grid>
        <Grid size={12}>
          <DetailSection title={t('admin.users.employees')}>
            <DetailTable
              caption={t('admin.users.employees')}
              header={[
                t('admin.users.name'),
                t('fields.email'),
                t('admin.users.status'),
                t('common.actions'),
              ]}
              rows={dm.team.map((e) => ({
                key: e.id,
                cells: [
                  `${e.firstName} ${e.lastName}`,
                  <span key="email" dir="ltr">
                    {e.email}
                  </span>,
                  <DataManagerStatusChip key="status" status={e.status} />,
                  mayViewAs && e.status === 'active' ? (
                    <Button
                      key="viewAs"
                      size="small"
                      startIcon={<IconEye size={16} />}
                      aria-label={`${t('admin.impersonation.start')}: ${e.email}`}
                      onClick={() => setViewing({ id: e.id, name: `${e.firstName} ${e.lastName}` })}
                    >
                      {t('admin.impersonation.start')}
                    </Button>
                  ) : null,
                ],
              }))}
              empty="—"
            />
          </DetailSection>
        </Grid>
        <Grid size={12}>
          <DetailSection title={t('admin.users.divisions')}>
            <DetailTable
              caption={t('admin.users.divisions')}
              header={[t('admin.users.division'), t('admin.users.files'), t('admin.users.size')]}
              rows={dm.divisions.map((d) => ({
                key: d.id,
                cells: [d.name, format.number(d.files), format.size(d.bytes)],
              }))}
              empty={t('admin.users.noDivisions')}
            />
          </DetailSection>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <DetailSection title={t('admin.users.recentSignIns')}>
            <DetailTable
              caption={t('admin.users.recentSignIns')}
              header={[t('admin.users.time'), t('admin.users.address'), t('admin.users.device')]}
              rows={dm.recentSignIns.map((s) => ({
                key: s.at,
                cells: [format.dateTime(s.at), s.ip ?? '—', s.userAgent ?? '—'],
              }))}
              empty={t('admin.users.noSignIns')}
            />
          </DetailSection>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <DetailSection title={t('admin.users.recentActivity')}>
            <DetailTable
              caption={t('admin.users.recentActivity')}
              header={[t('admin.users.time'), t('admin.users.action'), t('admin.users.code')]}
              rows={dm.recentActivity.map((a) => ({
                key: a.id,
                cells: [format.dateTime(a.createdAt), a.action, a.statusCode],
              }))}
              empty={t('admin.users.noActivity')}
            />
          </DetailSection>
        </Grid>
        {(mayUpdate || mayDelete) && (
          <Grid size={12}>
            <DetailSection title={t('admin.users.dangerZone')}>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 3 }}>
                {!mayUpdate ? null : dm.status === 'deactivated' ? (
                  <Button
                    variant="outlined"
                    startIcon={<IconUserCheck size={18} />}
                    disabled={setActive.isPending}
                    onClick={() => setActive.mutate({ id, active: true })}
                  >
                    {t('admin.users.reactivate')}
                  </Button>
                ) : (
                  <Button
                    variant="outlined"
                    color="warning"
                    startIcon={<IconUserOff size={18} />}
                    onClick={() => setConfirm('deactivate')}
                  >
                    {t('admin.users.deactivate')}
                  </Button>
                )}
                {mayDelete && (
                  <Button
                    variant="outlined"
                    color="error"
                    startIcon={<IconTrash size={18} />}
                    onClick={() => setConfirm('delete')}
                  >
                    {t('common.delete')}
                  </Button>
                )}
              </Stack>
            </DetailSection>
          </Grid>
        )}
      </Grid>
      <FormDialog
        open={editing}
        onClose={() => setEditing(false)}
        title={t('admin.users.editTitle')}
        formId="edit-data-manager"
        submitLabel={t('common.save')}
        pending={update.isPending}
      >
        {editing && <DataManagerForm formId="edit-data-manager" dataManager={dm} onSave={save} />}
      </FormDialog>
      <ConfirmDialog
        open={confirm === 'deactivate'}
        title={t('admin.users.deactivateTitle')}
        text={t('admin.users.deactivateText', { email: dm.email })}
        confirmLabel={t('admin.users.deactivate')}
        pending={setActive.isPending}
        onConfirm={() => setActive.mutate({ id, active: false })}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={viewing !== null}
        title={t('admin.impersonation.startTitle', { name: viewing?.name })}
        text={t('admin.impersonation.startText', { minutes: IMPERSONATION_MINUTES })}
        confirmLabel={t('admin.impersonation.start')}
        pending={viewAs.isPending}
        onConfirm={() => viewAs.mutate(viewing!.id)}
        onClose={() => setViewing(null)}
      />
      <DeleteDataManagerDialog
        dataManager={confirm === 'delete' ? dm : null}
        onClose={() => setConfirm(null)}
        onDeleted={() => navigate(LIST)}
      />
    </Stack>
  );
}
