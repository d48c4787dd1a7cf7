import { Chip } from '@mui/material';
import { alpha, darken, lighten } from '@mui/material/styles';
import { IconAlertTriangle, IconCheck, IconClock, IconMailOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OutboxStatus } from '../../api/emails.ts';

const LOOK = {
  queued: { color: 'info', Icon: IconClock },
  sent: { color: 'success', Icon: IconCheck },
  not_sent: { color: 'warning', Icon: IconMailOff },
  failed: { color: 'error', Icon: IconAlertTriangle },
} as const;

/**
 * A mail's status as a chip with colour and icon (never colour alone): a tint with a darkened text colour, since the
 * outlined warning and info chips put their light colour on white (about 3:1; WCAG AA asks 4.5:1).
 */
export function EmailStatusChip({ status }: { status: OutboxStatus }) {
  const { t } = useTranslation();
  const { color, Icon } = LOOK[status];
  return (
    <Chip
      size="small"
      icon={<Icon size={16} />}
      label={t(`admin.emails.statuses.${status}`)}
      sx={(theme) => {
        const main = theme.palette[color].main;
        const light = theme.palette.mode === 'light';
        const text = light ? darken(main, 0.45) : lighten(main, 0.45);
        return { bgcolor: alpha(main, light ? 0.14 : 0.24), color: text, '& .MuiChip-icon': { color: text } };
      }}
    />
  );
}
