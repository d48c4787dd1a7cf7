import {
  Box,
  Button,
  FormControlLabel,
  FormHelperText,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { LANGUAGE_NAMES, LANGUAGES, type SettingsTab, type SystemSettings } from '@werkwissen/shared';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveSettings } from '../../api/system-settings.ts';
import { checkTab, type FormValues, serverErrors, TAB_FIELDS, toFormValues } from './settings-fields.ts';

const ltr = { dir: 'ltr' } as const;

/**
 * One tab of the system settings as a form: checked with the tab's shared schema before it is sent, the server's
 * refusals shown at their fields, each field's environment default beneath it.
 */
export function SettingsTabForm({
  tab,
  settings,
  canEdit,
}: {
  tab: SettingsTab;
  settings: SystemSettings;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => toFormValues(settings.values[tab]));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveSettings({
    claimError: (error) => {
      const fields = serverErrors(error);
      if (fields) setErrors(fields);
      return fields !== null;
    },
  });
  const defaults = toFormValues(settings.defaults[tab]);

  const set = (name: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkTab(tab, values, t);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    save.mutate({ tab, values: checked.values });
  };
  const shownDefault = (name: string, value: string | boolean) =>
    typeof value === 'boolean'
      ? t(value ? 'admin.settings.defaultOn' : 'admin.settings.defaultOff')
      : t('admin.settings.defaultValue', {
          value: name === 'defaultLanguage' ? LANGUAGE_NAMES[value as (typeof LANGUAGES)[number]] : value,
        });

  return (
    <Stack component="form" noValidate spacing={4} onSubmit={submit} sx={{ maxWidth: 640 }}>
      {TAB_FIELDS[tab].map(({ name, kind }) => {
        const label = t(`admin.settings.fields.${name}`);
        const help = errors[name] ?? shownDefault(name, defaults[name]!);
        const id = `setting-${name}`;
        if (kind === 'switch') {
          return (
            <Box key={name}>
              <FormControlLabel
                control={
                  <Switch
                    id={id}
                    checked={values[name] === true}
                    disabled={!canEdit}
                    onChange={(e) => set(name, e.target.checked)}
                  />
                }
                label={label}
              />
              <FormHelperText error={Boolean(errors[name])}>
                {errors[name] ?? `${t(`admin.settings.help.${name}`)} ${help}`}
              </FormHelperText>
            </Box>
          );
        }
        return (
          <Stack key={name} direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
            <TextField
              id={id}
              label={label}
              value={values[name]}
              onChange={(e) => set(name, e.target.value)}
              error={Boolean(errors[name])}
              helperText={help}
              select={kind === 'language'}
              type={kind === 'number' ? 'number' : kind === 'url' ? 'url' : 'text'}
              disabled={!canEdit}
              fullWidth
              slotProps={{ htmlInput: kind === 'text' ? { dir: 'auto' } : ltr }}
            >
              {kind === 'language' &&
                LANGUAGES.map((l) => (
                  <MenuItem key={l} value={l} lang={l}>
                    {LANGUAGE_NAMES[l]}
                  </MenuItem>
                ))}
            </TextField>
            {kind === 'color' && (
              <Box
                component="input"
                type="color"
                aria-label={t('admin.settings.pickColor', { field: label })}
                value={/^#[0-9a-fA-F]{6}$/.test(String(values[name])) ? String(values[name]) : '#000000'}
                disabled={!canEdit}
                onChange={(e: ChangeEvent<HTMLInputElement>) => set(name, e.target.value)}
                sx={{
                  width: 56,
                  height: 56,
                  p: 0.5,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  flexShrink: 0,
                }}
              />
            )}
          </Stack>
        );
      })}
      {canEdit && (
        <Box>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('common.save')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
