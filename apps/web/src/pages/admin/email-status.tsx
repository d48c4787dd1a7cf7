import { Chip } from '@mui/material';
import { IconAlertTriangle, IconCheck, IconClock, IconMailOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OutboxStatus } from '../../api/emails.ts';

const LOOK = {
  queued: { color: 'info', Icon: IconClock },
  sent: { color: 'success', Icon: IconCheck },
  not_sent: { color: 'warning', Icon: IconMailOff },
  failed: { color: 'error', Icon: IconAlertTriangle },
} as const;

/** A mail's status as a chip with colour and icon (never colour alone). */
export function EmailStatusChip({ status }: { status: OutboxStatus }) {
  const { t } = useTranslation();
  const { color, Icon } = LOOK[status];
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      icon={<Icon size={16} />}
      label={t(`admin.emails.statuses.${status}`)}
    />
  );
}
