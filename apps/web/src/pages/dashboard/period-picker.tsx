import { Stack, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import {
  DASHBOARD_DEFAULT_DAYS,
  DASHBOARD_MAX_DAYS,
  DASHBOARD_PRESET_DAYS,
  type DashboardPeriodQuery,
  lastDays,
  resolvePeriod,
} from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

type Preset = (typeof DASHBOARD_PRESET_DAYS)[number];
type Choice = `${Preset}` | 'custom';

/**
 * The period of the platform figures, kept in the address so that a view can be bookmarked: `?days=7|30|90` (the
 * last days up to today, default 30) or `?from=…&to=…` (a custom period, as the server would accept it).
 */
export function usePeriod() {
  const [params, setParams] = useSearchParams();
  const from = params.get('from');
  const to = params.get('to');
  const custom = from && to ? resolvePeriod({ from, to }) : null;
  const days = Number(params.get('days'));
  const preset: Preset = (DASHBOARD_PRESET_DAYS as readonly number[]).includes(days)
    ? (days as Preset)
    : DASHBOARD_DEFAULT_DAYS;
  const query: DashboardPeriodQuery = custom ?? lastDays(preset);
  const choice: Choice = custom ? 'custom' : `${preset}`;
  const choose = (next: { days: Preset } | { from: string; to: string }) =>
    setParams(
      new URLSearchParams('days' in next ? { days: String(next.days) } : { from: next.from, to: next.to }),
      { replace: true },
    );
  return { query, choice, choose };
}

/** Presets (last 7, 30, 90 days) and a custom period from/to, checked as the server checks it. */
export function PeriodPicker({ period }: { period: ReturnType<typeof usePeriod> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(period.choice === 'custom');
  const [draft, setDraft] = useState({ from: period.query.from ?? '', to: period.query.to ?? '' });
  const valid = draft.from && draft.to ? resolvePeriod(draft) !== null : true;
  const change = (key: 'from' | 'to', value: string) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    if (next.from && next.to && resolvePeriod(next)) period.choose(next);
  };
  const date = (key: 'from' | 'to') => (
    <TextField
      type="date"
      size="small"
      id={`period-${key}`}
      label={t(`admin.dashboard.period.${key}`)}
      value={draft[key]}
      onChange={(e) => change(key, e.target.value)}
      error={!valid}
      helperText={
        !valid && key === 'to' ? t('errors.PERIOD_INVALID', { maxDays: DASHBOARD_MAX_DAYS }) : undefined
      }
      sx={{ minWidth: 160, flex: '1 1 160px', maxWidth: { sm: 200 } }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { dir: 'ltr' } }}
    />
  );
  return (
    <Stack
      direction="row"
      component="section"
      aria-label={t('admin.dashboard.period.label')}
      data-testid="period-picker"
      sx={{ flexWrap: 'wrap', gap: 3, alignItems: 'flex-start' }}
    >
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={editing ? 'custom' : period.choice}
        aria-label={t('admin.dashboard.period.label')}
        onChange={(_e, value: Choice | null) => {
          if (!value) return;
          if (value === 'custom') {
            setDraft({ from: period.query.from ?? '', to: period.query.to ?? '' });
            setEditing(true);
            return;
          }
          setEditing(false);
          period.choose({ days: Number(value) as Preset });
        }}
        sx={{ flexWrap: 'wrap' }}
      >
        {DASHBOARD_PRESET_DAYS.map((days) => (
          <ToggleButton key={days} value={`${days}`}>
            {t(`admin.dashboard.period.last${days}`)}
          </ToggleButton>
        ))}
        <ToggleButton value="custom">{t('admin.dashboard.period.custom')}</ToggleButton>
      </ToggleButtonGroup>
      {editing && (
        <Stack direction="row" sx={{ gap: 3, flexWrap: 'wrap', flex: '1 1 auto' }}>
          {date('from')}
          {date('to')}
        </Stack>
      )}
    </Stack>
  );
}
