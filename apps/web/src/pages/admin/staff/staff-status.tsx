import { Chip } from '@mui/material';
import { IconCircleCheck, IconCircleOff, IconMail } from '@tabler/icons-react';
import type { StaffMember } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';

const LOOK = {
  active: { color: 'success', icon: IconCircleCheck },
  invited: { color: 'default', icon: IconMail },
  deactivated: { color: 'warning', icon: IconCircleOff },
} as const;

/** A staff member's status as a chip: colour and icon, never colour alone. */
export function StaffStatus({ status }: { status: StaffMember['status'] }) {
  const { t } = useTranslation();
  const { color, icon: Icon } = LOOK[status];
  return (
    <Chip size="small" color={color} icon={<Icon size={16} />} label={t(`admin.staff.statuses.${status}`)} />
  );
}
