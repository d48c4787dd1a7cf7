import { Alert, Box, Link, Stack, Typography } from '@mui/material';
import { INBOUND_FATES, type InboundFate, type InboundMail } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, Link as RouterLink, useLocation } from 'react-router';
import { inboundMailTable, useEmailSetting } from '../../api/email-settings.ts';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { SelectField } from '../../components/select-field.tsx';

/** An address inside a sentence, isolated (FSI … PDI): in Arabic its dots and hyphens stay in their place. */
const isolate = (value: string) => `\u2068${value}\u2069`;

const FATE_COLOR: Record<InboundFate, string> = {
  answered: 'success.main',
  ignored: 'text.secondary',
  waiting: 'warning.main',
  failed: 'error.main',
};

/**
 * `/email-settings/:settingId/mails`: every mail the e-mail assistant read from a mailbox, newest first, with what
 * became of it (answered, ignored and why, waiting, failed), searchable by sender and subject, filtered by fate.
 */
export default function InboundMailsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const settingId =
    matchPath('/email-settings/:settingId/mails', useLocation().pathname)?.params.settingId ?? '';
  const setting = useEmailSetting(settingId);
  const [fate, setFate] = useState<InboundFate | ''>('');
  const table = inboundMailTable(settingId, fate);

  const columns: Column<InboundMail>[] = [
    {
      id: 'receivedAt',
      label: t('emailSettings.mails.columns.received'),
      render: (m) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(m.receivedAt)}</Box>,
      csv: (m) => m.receivedAt,
    },
    {
      id: 'from',
      label: t('emailSettings.mails.columns.from'),
      render: (m) => (
        <Box sx={{ direction: 'ltr', unicodeBidi: 'isolate' }}>
          <CellText text={m.from} maxWidth={240} />
        </Box>
      ),
      csv: (m) => m.from,
    },
    {
      id: 'subject',
      label: t('emailSettings.mails.columns.subject'),
      fill: true,
      minWidth: 180,
      render: (m) =>
        m.chatId ? (
          <Link
            component={RouterLink}
            to={`/chat?chat=${m.chatId}`}
            // The name starts with the subject it shows (WCAG 2.5.3, label in name), then says what it opens.
            aria-label={[m.subject, t('emailSettings.mails.openChat')].filter(Boolean).join(' – ')}
          >
            <CellText text={m.subject} />
          </Link>
        ) : (
          <CellText text={m.subject} />
        ),
      csv: (m) => m.subject,
    },
    {
      id: 'fate',
      label: t('emailSettings.mails.columns.fate'),
      render: (m) => (
        <Stack spacing={0.5}>
          <Typography variant="body2" sx={{ color: FATE_COLOR[m.fate], fontWeight: 600 }}>
            {t(`emailSettings.mails.fates.${m.fate}`)}
          </Typography>
          {m.reasonText && (
            <Typography variant="body2" color="text.secondary">
              {m.reasonText}
            </Typography>
          )}
          {m.fate === 'waiting' && m.retryAt && (
            <Typography variant="body2" color="text.secondary">
              {t('emailSettings.mails.retryAt', { time: format.dateTime(m.retryAt) })}
            </Typography>
          )}
        </Stack>
      ),
      csv: (m) => [t(`emailSettings.mails.fates.${m.fate}`), m.reasonText].filter(Boolean).join(': '),
    },
    {
      id: 'answeredAt',
      label: t('emailSettings.mails.columns.answered'),
      render: (m) => (m.answeredAt ? format.dateTime(m.answeredAt) : ''),
      csv: (m) => m.answeredAt ?? '',
    },
  ];

  return (
    <Stack spacing={6}>
      <Stack spacing={1}>
        <Link component={RouterLink} to="/email-settings">
          {t('emailSettings.mails.back')}
        </Link>
        <PageHeader title={t('emailSettings.mails.title')} />
        {setting.data && (
          <Typography color="text.secondary">
            {t('emailSettings.mails.intro', { email: isolate(setting.data.fromEmail) })}
          </Typography>
        )}
      </Stack>
      {setting.data === null ? (
        <Alert severity="warning">{t('emailSettings.mails.notFound')}</Alert>
      ) : (
        <DataTable<InboundMail>
          queryKey={table.queryKey}
          fetchPage={table.fetchPage}
          refetchInterval={(items) => (items.some((m) => m.fate === 'waiting') ? 5000 : false)}
          columns={columns}
          rowKey={(m) => m.id}
          csvName="incoming-mails"
          caption={t('emailSettings.mails.title')}
          emptyText={t('emailSettings.mails.empty')}
          filters={
            <SelectField
              id="inbound-fate"
              label={t('emailSettings.mails.columns.fate')}
              value={fate}
              onChange={(v) => setFate(v as InboundFate | '')}
              options={[
                { value: '', label: t('emailSettings.mails.anyFate') },
                ...INBOUND_FATES.map((f) => ({ value: f, label: t(`emailSettings.mails.fates.${f}`) })),
              ]}
            />
          }
        />
      )}
    </Stack>
  );
}
