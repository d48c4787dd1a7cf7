import { Chip } from '@mui/material';
import { IconCircleCheck, IconMail, IconUserOff } from '@tabler/icons-react';
import type { DataManagerStatus } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';

const LOOK = {
  active: { color: 'success', icon: <IconCircleCheck size={16} /> },
  invited: { color: 'default', icon: <IconMail size={16} /> },
  deactivated: { color: 'error', icon: <IconUserOff size={16} /> },
} as const;

/** A data manager's status: invited (no password yet), active, or deactivated by the operator. */
export function DataManagerStatusChip({ status }: { status: DataManagerStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={LOOK[status].color}
      icon={LOOK[status].icon}
      label={t(`admin.users.statuses.${status}`)}
    />
  );
}
