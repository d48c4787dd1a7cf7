import { Box, Link, Stack, Typography } from '@mui/material';
import { OUTBOX_STATUSES, type outboxEmailSchema } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import { emailTable, type OutboxStatus } from '../../api/emails.ts';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { EmailSenders } from './email-senders.tsx';
import { EmailStatusChip } from './email-status.tsx';

type OutboxEmail = z.infer<typeof outboxEmailSchema>;

/**
 * `/admin/emails`: the outbox, newest first, searchable by recipient and subject, filtered by status; below it, who
 * sent how much against their mail limits.
 */
export default function EmailsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [status, setStatus] = useState<OutboxStatus | ''>('');
  const table = emailTable(status);

  const columns: Column<OutboxEmail>[] = [
    {
      id: 'subject',
      label: t('admin.emails.columns.subject'),
      fill: true,
      minWidth: 180,
      render: (m) => (
        <Link component={RouterLink} to={`/admin/emails/${m.id}`}>
          <CellText text={m.subject} />
        </Link>
      ),
    },
    {
      id: 'to',
      label: t('admin.emails.columns.to'),
      render: (m) => <CellText text={m.to} maxWidth={220} />,
    },
    {
      id: 'template',
      label: t('admin.emails.columns.template'),
      render: (m) => t(`admin.templates.kinds.${m.template}`, { defaultValue: m.template }),
    },
    {
      id: 'status',
      label: t('admin.emails.columns.status'),
      render: (m) => (
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <EmailStatusChip status={m.status} />
          {m.statusReason && (
            <Typography variant="body2" component="div" color="text.secondary">
              <CellText text={m.statusReason} maxWidth={220} />
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      id: 'attempts',
      label: t('admin.emails.columns.attempts'),
      align: 'right',
      render: (m) => format.number(m.attempts),
    },
    {
      id: 'createdAt',
      label: t('admin.emails.columns.created'),
      render: (m) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(m.createdAt)}</Box>,
    },
  ];

  return (
    <Stack spacing={6}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <PageHeader title={t('admin.emails.title')} />
        <Link component={RouterLink} to="/admin/email-templates">
          {t('admin.emails.toTemplates')}
        </Link>
      </Stack>
      <DataTable<OutboxEmail>
        queryKey={table.queryKey}
        fetchPage={table.fetchPage}
        refetchInterval={(items) => (items.some((m) => m.status === 'queued') ? 2000 : false)}
        columns={columns}
        rowKey={(m) => m.id}
        caption={t('admin.emails.title')}
        emptyText={t('admin.emails.empty')}
        filters={
          <SelectField
            id="email-status"
            label={t('admin.emails.columns.status')}
            value={status}
            onChange={(v) => setStatus(v as OutboxStatus | '')}
            options={[
              { value: '', label: t('admin.emails.anyStatus') },
              ...OUTBOX_STATUSES.map((s) => ({ value: s, label: t(`admin.emails.statuses.${s}`) })),
            ]}
          />
        }
      />
      <EmailSenders />
    </Stack>
  );
}
