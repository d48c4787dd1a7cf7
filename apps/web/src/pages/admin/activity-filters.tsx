import { Button, Paper, Stack, TextField } from '@mui/material';
import { IconFilterOff } from '@tabler/icons-react';
import { type ActivityFilter, STATUS_CLASSES } from '@werkwissen/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/select-field.tsx';

export type FilterValues = Record<keyof ActivityFilter, string>;
export const NO_FILTER: FilterValues = { from: '', to: '', actor: '', company: '', action: '', status: '' };

/** The filters that are set, as the list and the export send them. */
export function toActivityFilter(values: FilterValues): ActivityFilter {
  return Object.fromEntries(
    Object.entries(values)
      .map(([k, v]) => [k, v.trim()])
      .filter(([, v]) => v !== ''),
  ) as ActivityFilter;
}

/**
 * The activity log's filter bar: period, actor, company, action and answer class. Typed texts apply after a short
 * pause (each change goes back to the first page), the period and class at once.
 */
export function ActivityFilters({ onChange }: { onChange(values: FilterValues): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FilterValues>(NO_FILTER);
  useEffect(() => {
    const timer = setTimeout(() => onChange(values), 300);
    return () => clearTimeout(timer);
  }, [values, onChange]);
  const set = (key: keyof FilterValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const date = (key: 'from' | 'to') => (
    <TextField
      size="small"
      type="date"
      label={t(`admin.activity.filters.${key}`)}
      value={values[key]}
      onChange={set(key)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
  const text = (key: 'actor' | 'company' | 'action') => (
    <TextField
      size="small"
      label={t(`admin.activity.filters.${key}`)}
      value={values[key]}
      onChange={set(key)}
      sx={{ minWidth: 160 }}
    />
  );
  return (
    <Paper
      variant="outlined"
      component={Stack}
      direction="row"
      spacing={3}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center', p: 4 }}
    >
      {date('from')}
      {date('to')}
      {text('actor')}
      {text('company')}
      {text('action')}
      <SelectField
        id="activity-status"
        label={t('admin.activity.filters.status')}
        value={values.status}
        onChange={(status) => setValues((v) => ({ ...v, status }))}
        options={[
          { value: '', label: t('admin.activity.filters.anyStatus') },
          ...STATUS_CLASSES.map((c) => ({ value: c, label: t(`admin.activity.statusClasses.${c}`) })),
        ]}
        minWidth={160}
      />
      <Button startIcon={<IconFilterOff size={18} />} onClick={() => setValues(NO_FILTER)}>
        {t('admin.activity.filters.reset')}
      </Button>
    </Paper>
  );
}
