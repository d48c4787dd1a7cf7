import { Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';

export const REPORT_PATHS = {
  all: '/feedback-report',
  employees: '/feedback-report/employee-feedback',
  public: '/feedback-report/public-feedback',
  gaps: '/feedback-report/knowledge-gaps',
} as const;

/** Filters that mean the same in every view and so go along when switching views. */
const CARRIED = ['from', 'to', 'divisionId'];

/** The views of the feedback report as links: all, employees, public, knowledge gaps. */
export function ReportTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const carried = new URLSearchParams();
  for (const k of CARRIED) {
    const v = params.get(k);
    if (v) carried.set(k, v);
  }
  const search = carried.toString() ? `?${carried}` : '';
  const current = Object.values(REPORT_PATHS).find((p) => p === pathname.replace(/\/$/, '')) ?? false;
  return (
    <Tabs
      value={current}
      aria-label={t('reports.tabs.label')}
      variant="scrollable"
      allowScrollButtonsMobile
      component="nav"
    >
      {(Object.keys(REPORT_PATHS) as Array<keyof typeof REPORT_PATHS>).map((view) => (
        <Tab
          key={view}
          value={REPORT_PATHS[view]}
          label={t(`reports.tabs.${view}`)}
          component={Link}
          to={`${REPORT_PATHS[view]}${search}`}
          aria-current={current === REPORT_PATHS[view] ? 'page' : undefined}
        />
      ))}
    </Tabs>
  );
}
