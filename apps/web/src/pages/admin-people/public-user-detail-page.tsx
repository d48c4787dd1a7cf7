import { Alert, Button, Skeleton, Stack, Typography } from '@mui/material';
import { formatPhone } from '@werkwissen/shared/phone';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation } from 'react-router';
import { z } from 'zod';
import { usePublicUser } from '../../api/admin-people.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { DetailSection, DetailTable, Facts } from './detail-section.tsx';

const LIST = '/admin/users/public-user';

/** `/admin/users/public-user/:id`: one public user's contact and how they used each chat. */
export default function PublicUserDetailPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const id = matchPath(`${LIST}/:id`, useLocation().pathname)?.params.id ?? '';
  const wellFormed = z.uuid().safeParse(id).success;
  const query = usePublicUser(id, { enabled: wellFormed });
  const notFound = !wellFormed || (query.error instanceof ApiError && query.error.status === 404);
  const user = query.data;

  return (
    <Stack spacing={6}>
      <Typography variant="h4" component="h1" dir="auto">
        {user?.name ?? t('admin.users.publicUsers.detailTitle')}
      </Typography>
      {notFound && <Alert severity="warning">{t('admin.users.notFound')}</Alert>}
      {query.isError && !notFound && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {!user && !query.isError && !notFound && <Skeleton variant="rounded" height={240} />}
      {user && (
        <>
          <DetailSection title={t('admin.users.contact')}>
            <Facts
              items={[
                [
                  t('fields.email'),
                  user.email ? (
                    <span key="email" dir="ltr">
                      {user.email}
                    </span>
                  ) : (
                    '—'
                  ),
                ],
                [
                  t('admin.users.phone'),
                  user.phone ? (
                    <span key="phone" dir="ltr">
                      {formatPhone(user.phone)}
                    </span>
                  ) : (
                    '—'
                  ),
                ],
                [t('admin.users.company'), user.companyName ?? t('admin.companies.unnamed')],
                [t('admin.users.publicUsers.firstSeen'), format.dateTime(user.firstSeenAt)],
                [t('admin.users.publicUsers.lastSeen'), format.dateTime(user.lastSeenAt)],
              ]}
            />
          </DetailSection>
          <DetailSection title={t('admin.users.publicUsers.chats')}>
            <DetailTable
              caption={t('admin.users.publicUsers.chats')}
              header={[
                t('admin.users.publicUsers.chat'),
                t('admin.users.publicUsers.questions'),
                t('admin.users.publicUsers.firstSeen'),
                t('admin.users.publicUsers.lastSeen'),
              ]}
              rows={user.chatUse.map((c) => ({
                key: c.id,
                cells: [
                  c.name,
                  format.number(c.questions),
                  format.dateTime(c.firstSeenAt),
                  format.dateTime(c.lastSeenAt),
                ],
              }))}
              empty="—"
            />
          </DetailSection>
        </>
      )}
      <Button component={Link} to={LIST} variant="outlined" sx={{ alignSelf: 'flex-start' }}>
        {t('admin.users.publicUsers.back')}
      </Button>
    </Stack>
  );
}
