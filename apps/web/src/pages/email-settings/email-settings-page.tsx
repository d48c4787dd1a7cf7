import { Box, Button, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { IconAlertTriangle, IconEdit, IconInbox, IconPlus, IconTrash } from '@tabler/icons-react';
import type { EmailSetting } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { emailSettingTable, useDeleteEmailSetting } from '../../api/email-settings.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { usePlanRoom } from '../../components/plan-limit-note.tsx';
import { EmailSettingDialog } from './email-setting-form.tsx';

/** The mailbox's state: when the assistant last read it, or why it could not (a wrong password, say). */
function MailboxStatus({ setting }: { setting: EmailSetting }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { mailbox } = setting;
  if (mailbox.error)
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'error.main' }}>
        <IconAlertTriangle size={18} aria-hidden />
        <span>{mailbox.error}</span>
      </Stack>
    );
  return mailbox.checkedAt
    ? t('emailSettings.status.checked', { time: format.dateTime(mailbox.checkedAt) })
    : t('emailSettings.status.waiting');
}

/** The e-mail settings: the e-mail assistant's mailboxes, one per division and address. */
export default function EmailSettingsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ setting: EmailSetting | null } | null>(null);
  const [deleting, setDeleting] = useState<EmailSetting | null>(null);
  const remove = useDeleteEmailSetting({ onSettled: () => setDeleting(null) });
  // One setting holds a mailbox's SMTP details too: it needs room under both limits.
  const mailboxes = usePlanRoom('emailSettings');
  const smtp = usePlanRoom('smtpSettings');
  const full = mailboxes.full || smtp.full;

  const columns: Column<EmailSetting>[] = [
    {
      id: 'fromEmail',
      label: t('emailSettings.fields.fromEmail'),
      render: (s) => <Box sx={{ direction: 'ltr', unicodeBidi: 'isolate' }}>{s.fromEmail}</Box>,
      csv: (s) => s.fromEmail,
    },
    {
      id: 'allowedEmails',
      label: t('emailSettings.fields.allowedEmails'),
      render: (s) => (
        <Stack>
          {s.allowedEmails.map((e) => (
            <Box key={e} sx={{ direction: 'ltr', unicodeBidi: 'isolate' }}>
              {e}
            </Box>
          ))}
        </Stack>
      ),
      csv: (s) => s.allowedEmails.join(' '),
    },
    {
      id: 'division',
      label: t('emailSettings.fields.division'),
      render: (s) => s.divisionName,
      csv: (s) => s.divisionName,
    },
    {
      id: 'visibility',
      label: t('emailSettings.columns.visibility'),
      render: (s) => (
        <Chip
          size="small"
          variant="outlined"
          label={t(s.isPrivate ? 'emailSettings.visibility.private' : 'emailSettings.visibility.shared')}
        />
      ),
      csv: (s) => t(s.isPrivate ? 'emailSettings.visibility.private' : 'emailSettings.visibility.shared'),
    },
    {
      id: 'smtp',
      label: t('emailSettings.smtpDetails'),
      render: (s) => (
        <Box sx={{ direction: 'ltr', unicodeBidi: 'isolate' }}>
          {s.smtpHost}:{s.smtpPort} · {s.imapHost}:{s.imapPort}
        </Box>
      ),
      csv: (s) => `${s.smtpHost}:${s.smtpPort} ${s.imapHost}:${s.imapPort}`,
    },
    {
      id: 'mailbox',
      label: t('emailSettings.columns.mailbox'),
      render: (s) => <MailboxStatus setting={s} />,
      csv: (s) => s.mailbox.error ?? s.mailbox.checkedAt ?? '',
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (s) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Tooltip title={t('emailSettings.mails.open')}>
            <IconButton
              component={RouterLink}
              to={`/email-settings/${s.id}/mails`}
              aria-label={`${t('emailSettings.mails.open')}: ${s.fromEmail}`}
            >
              <IconInbox size={20} />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('emailSettings.edit')}>
            <IconButton
              aria-label={`${t('emailSettings.edit')}: ${s.fromEmail}`}
              onClick={() => setEditing({ setting: s })}
            >
              <IconEdit size={20} />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('emailSettings.delete')}>
            <IconButton
              aria-label={`${t('emailSettings.delete')}: ${s.fromEmail}`}
              onClick={() => setDeleting(s)}
            >
              <IconTrash size={20} />
            </IconButton>
          </Tooltip>
        </Stack>
      ),
    },
  ];

  return (
    <Stack spacing={6}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 3 }}
      >
        <Box>
          <PageHeader title={t('emailSettings.title')} />
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('emailSettings.intro')}
          </Typography>
        </Box>
        <Button
          variant="contained"
          startIcon={<IconPlus size={18} />}
          disabled={full}
          onClick={() => setEditing({ setting: null })}
        >
          {t('emailSettings.add')}
        </Button>
      </Stack>
      {mailboxes.note ?? smtp.note}
      <DataTable<EmailSetting>
        queryKey={emailSettingTable.queryKey}
        fetchPage={emailSettingTable.fetchPage}
        columns={columns}
        rowKey={(s) => s.id}
        csvName="email-settings"
        caption={t('emailSettings.title')}
        emptyText={t('emailSettings.empty')}
      />
      {editing && <EmailSettingDialog setting={editing.setting} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('emailSettings.deleteTitle')}
        text={t('emailSettings.deleteText', { email: deleting?.fromEmail })}
        confirmLabel={t('emailSettings.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
