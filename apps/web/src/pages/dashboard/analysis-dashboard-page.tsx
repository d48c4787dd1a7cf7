import { Alert, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAnalysisDashboard } from '../../api/dashboard.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PeriodPicker, usePeriod } from './period-picker.tsx';
import { PlatformFigures } from './platform-figures.tsx';

/** The analysis area (read-only, `read analysis`): the platform's figures over a chosen period. */
export default function AnalysisDashboardPage() {
  const { t } = useTranslation();
  const period = usePeriod();
  const query = useAnalysisDashboard(period.query);
  return (
    <Stack spacing={6}>
      <PageHeader title={t('pages.analysisDashboard.title')} subtitle={t('analysis.intro')} />
      <PeriodPicker period={period} />
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      <PlatformFigures figures={query.data} />
    </Stack>
  );
}
