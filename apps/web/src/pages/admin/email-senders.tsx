import { Box, Chip, Stack, Typography } from '@mui/material';
import type { emailSenderSchema } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { emailSenderTable } from '../../api/emails.ts';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';

type EmailSender = z.infer<typeof emailSenderSchema>;

/**
 * Who sends how much: the companies whose mails counted against their mail limits in the last 24 hours, with the
 * last hour and day beside each company's limits (a trial's are smaller), most first; searchable by company.
 */
export function EmailSenders() {
  const { t } = useTranslation();
  const format = useFormat();
  const usage = (used: number, max: number) => (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      {t('admin.emails.senders.usage', { used: format.number(used), max: format.number(max) })}
    </Box>
  );

  const columns: Column<EmailSender>[] = [
    {
      id: 'company',
      label: t('admin.emails.senders.company'),
      fill: true,
      minWidth: 180,
      render: (s) => (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CellText text={s.companyName || t('admin.emails.senders.unnamed')} />
          {s.trial && <Chip size="small" label={t('plans.trial')} />}
        </Stack>
      ),
    },
    {
      id: 'lastHour',
      label: t('admin.emails.senders.lastHour'),
      align: 'right',
      minWidth: 110,
      render: (s) => usage(s.lastHour, s.perHour),
    },
    {
      id: 'lastDay',
      label: t('admin.emails.senders.lastDay'),
      align: 'right',
      minWidth: 110,
      render: (s) => usage(s.lastDay, s.perDay),
    },
    {
      id: 'lastMailAt',
      label: t('admin.emails.senders.lastMail'),
      render: (s) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(s.lastMailAt)}</Box>,
    },
  ];

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h2">
        {t('admin.emails.senders.title')}
      </Typography>
      <Typography color="text.secondary">{t('admin.emails.senders.intro')}</Typography>
      <DataTable<EmailSender>
        queryKey={emailSenderTable.queryKey}
        fetchPage={emailSenderTable.fetchPage}
        columns={columns}
        rowKey={(s) => s.companyId}
        caption={t('admin.emails.senders.title')}
        emptyText={t('admin.emails.senders.empty')}
      />
    </Stack>
  );
}
