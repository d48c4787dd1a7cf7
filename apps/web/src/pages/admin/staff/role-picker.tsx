import { Autocomplete, Chip, TextField } from '@mui/material';
import { COMPANY_ROLE_KINDS } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useRoleChoices } from '../../../api/roles.ts';
import { roleName } from '../roles/role-name.ts';

/** Chooses a staff member's roles among the operator's (Administrator, Staff and custom roles; no company role). */
export function RolePicker({
  value,
  onChange,
  errorKey,
  disabled = false,
}: {
  value: string[];
  onChange(roleIds: string[]): void;
  errorKey?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const choices = useRoleChoices();
  const options = (choices.data ?? []).filter((r) => !r.kind || !COMPANY_ROLE_KINDS.includes(r.kind));
  return (
    <Autocomplete
      multiple
      disabled={disabled}
      options={options}
      loading={choices.isPending}
      getOptionLabel={(r) => roleName(t, r)}
      value={options.filter((r) => value.includes(r.id))}
      onChange={(_e, chosen) => onChange(chosen.map((r) => r.id))}
      renderValue={(chosen, getItemProps) =>
        chosen.map((r, index) => (
          <Chip {...getItemProps({ index })} key={r.id} label={roleName(t, r)} size="small" />
        ))
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('admin.staff.roles')}
          helperText={errorKey ? t(errorKey) : t('admin.staff.rolesHelp')}
          error={Boolean(errorKey)}
        />
      )}
    />
  );
}
