import { Button, Paper, Stack, TextField } from '@mui/material';
import { IconFilterOff } from '@tabler/icons-react';
import { FEEDBACK_ORIGINS, MOODS, type ReportFilter } from '@werkwissen/shared';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SelectField } from '../../components/select-field.tsx';

export const FILTER_KEYS = [
  'from',
  'to',
  'divisionId',
  'origin',
  'rating',
  'mood',
  'tagId',
  'liked',
  'companyId',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
/** The filters as the bar shows them: an empty string is "any". */
export type FilterValues = Record<FilterKey, string>;

/** The filters of a report view, kept in the address so that a view can be bookmarked and shared. */
export function useReportFilters() {
  const [params, setParams] = useSearchParams();
  const values = useMemo(
    () => Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) as FilterValues,
    [params],
  );
  const change = useCallback(
    (patch: Partial<FilterValues>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [k, v] of Object.entries(patch)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const reset = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  return { values, change, reset };
}

/** The request's filters: only those that are set (and the view's fixed origin, which wins). */
export function toReportQuery(values: FilterValues, keys: readonly FilterKey[]): ReportFilter {
  const query: Record<string, string> = {};
  for (const k of keys) if (values[k]) query[k] = values[k];
  return query as unknown as ReportFilter;
}

/** The same filters as a query string, for links such as the CSV export. */
export function toSearch(query: ReportFilter): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  return qs.toString();
}

export interface FilterOptions {
  divisions?: Array<{ id: string; name: string }>;
  tags?: Array<{ id: string; name: string }>;
  companies?: Array<{ id: string; name: string }>;
}

/** The bar above a report: period, division, origin, rating, mood, tag, like and (administrators) company. */
export function ReportFilterBar({
  shown,
  values,
  onChange,
  onReset,
  options,
}: {
  shown: readonly FilterKey[];
  values: FilterValues;
  onChange(patch: Partial<FilterValues>): void;
  onReset(): void;
  options: FilterOptions;
}) {
  const { t } = useTranslation();
  const has = (k: FilterKey) => shown.includes(k);
  const any = shown.some((k) => values[k]);
  const date = (key: 'from' | 'to') => (
    <TextField
      type="date"
      size="small"
      id={`report-${key}`}
      label={t(`reports.filters.${key}`)}
      value={values[key]}
      onChange={(e) => onChange({ [key]: e.target.value })}
      fullWidth={false}
      sx={{ minWidth: 160 }}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: {
          dir: 'ltr',
          ...(key === 'from' && values.to ? { max: values.to } : {}),
          ...(key === 'to' && values.from ? { min: values.from } : {}),
        },
      }}
    />
  );
  const select = (key: FilterKey, anyLabel: string, list: Array<{ value: string; label: string }>) => (
    <SelectField
      id={`report-${key}`}
      label={t(`reports.filters.${key}`)}
      value={values[key]}
      onChange={(value) => onChange({ [key]: value })}
      options={[{ value: '', label: anyLabel }, ...list]}
      minWidth={160}
    />
  );
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('reports.filters.label')}
      sx={{ p: 4 }}
      data-testid="report-filters"
    >
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 3, alignItems: 'center' }}>
        {has('from') && date('from')}
        {has('to') && date('to')}
        {has('companyId') &&
          select(
            'companyId',
            t('reports.filters.allCompanies'),
            (options.companies ?? []).map((c) => ({ value: c.id, label: c.name })),
          )}
        {has('divisionId') &&
          select(
            'divisionId',
            t('reports.filters.allDivisions'),
            (options.divisions ?? []).map((d) => ({ value: d.id, label: d.name })),
          )}
        {has('origin') &&
          select(
            'origin',
            t('reports.filters.allOrigins'),
            FEEDBACK_ORIGINS.map((o) => ({ value: o, label: t(`reports.origins.${o}`) })),
          )}
        {has('rating') &&
          select(
            'rating',
            t('reports.filters.anyRating'),
            [5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: t('reports.ratingValue', { value: n }) })),
          )}
        {has('mood') &&
          select(
            'mood',
            t('reports.filters.anyMood'),
            MOODS.map((m) => ({ value: m, label: t(`reports.moods.${m}`) })),
          )}
        {has('tagId') &&
          select(
            'tagId',
            t('reports.filters.anyTag'),
            (options.tags ?? []).map((tag) => ({ value: tag.id, label: tag.name })),
          )}
        {has('liked') &&
          select('liked', t('reports.filters.anyLiked'), [
            { value: 'true', label: t('reports.liked') },
            { value: 'false', label: t('reports.disliked') },
          ])}
        {any && (
          <Button startIcon={<IconFilterOff size={18} />} onClick={onReset}>
            {t('reports.filters.reset')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
