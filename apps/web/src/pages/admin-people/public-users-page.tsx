import { Chip, Stack } from '@mui/material';
import type { PublicUser } from '@werkwissen/shared';
import { formatPhone } from '@werkwissen/shared/phone';
import { useTranslation } from 'react-i18next';
import { publicUserTable } from '../../api/admin-people.ts';
import { CellText } from '../../components/cell-text.tsx';
import type { Column } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { ListPage } from '../../components/list-page.tsx';
import { OpenButton } from './open-button.tsx';
import { userEmptyText } from './user-empty-text.ts';

/** `/admin/users/public-user`: the visitors of public chats who left a name and a contact, one row per person. */
export default function PublicUsersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const contact = (u: PublicUser) => [u.email, u.phone && formatPhone(u.phone)].filter(Boolean).join(' · ');

  const columns: Column<PublicUser>[] = [
    {
      id: 'name',
      label: t('admin.users.name'),
      sortable: true,
      render: (u) => <CellText text={u.name ?? '—'} lines={2} maxWidth={200} />,
      csv: (u) => u.name ?? '',
    },
    {
      id: 'contact',
      label: t('admin.users.contact'),
      fill: true,
      minWidth: 180,
      render: (u) => <CellText text={contact(u)} lines={2} />,
    },
    { id: 'email', label: t('fields.email'), csv: (u) => u.email ?? '' },
    { id: 'phone', label: t('admin.users.phone'), csv: (u) => u.phone ?? '' },
    {
      id: 'company',
      label: t('admin.users.company'),
      render: (u) => <CellText text={u.companyName ?? t('admin.companies.unnamed')} maxWidth={200} />,
      csv: (u) => u.companyName ?? '',
    },
    {
      id: 'chats',
      label: t('admin.users.publicUsers.chats'),
      render: (u) => (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {u.chats.map((c) => (
            <Chip
              key={c.id}
              label={c.name}
              title={c.name}
              size="small"
              variant="outlined"
              sx={{ maxWidth: 180 }}
            />
          ))}
        </Stack>
      ),
      csv: (u) => u.chats.map((c) => c.name).join('; '),
    },
    {
      id: 'lastSeenAt',
      label: t('admin.users.publicUsers.lastSeen'),
      sortable: true,
      render: (u) => format.dateTime(u.lastSeenAt),
      csv: (u) => format.dateTime(u.lastSeenAt),
    },
    {
      id: 'open',
      label: t('common.actions'),
      align: 'right',
      render: (u) => (
        <OpenButton
          to={`/admin/users/public-user/${u.id}`}
          label={`${t('common.open')}: ${u.name ?? contact(u)}`}
        />
      ),
    },
  ];

  return (
    <ListPage<PublicUser>
      title={t('admin.users.publicUsers.title')}
      subtitle={t('admin.users.publicUsers.intro')}
      source={publicUserTable}
      columns={columns}
      rowKey={(u) => u.id}
      csvName="public-users"
      emptyText={userEmptyText(t, t('admin.users.publicUsers.empty'))}
      defaultSort="-lastSeenAt"
    />
  );
}
