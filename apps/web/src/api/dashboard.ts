import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type DashboardPeriodQuery, dashboardContracts } from '@werkwissen/shared';
import { call } from './http.ts';

/** Query keys of the dashboards (figures drawn from files, chats, feedback and the account). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  company: () => [...dashboardKeys.all, 'company'] as const,
  admin: (period: DashboardPeriodQuery) => [...dashboardKeys.all, 'admin', period] as const,
  analysis: (period: DashboardPeriodQuery) => [...dashboardKeys.all, 'analysis', period] as const,
};

/** The data manager's dashboard: company, plan, next steps and chat figures. */
export function useCompanyDashboard() {
  return useQuery({ queryKey: dashboardKeys.company(), queryFn: () => call(dashboardContracts.company) });
}

/** The operator's dashboard: today's counters and the platform's figures over the period. */
export function useAdminDashboard(period: DashboardPeriodQuery) {
  return useQuery({
    queryKey: dashboardKeys.admin(period),
    queryFn: () => call(dashboardContracts.admin, { query: period }),
    // Another period keeps the charts of the last one until its figures arrive.
    placeholderData: keepPreviousData,
  });
}

/** The analysis area: the platform's figures over the period. */
export function useAnalysisDashboard(period: DashboardPeriodQuery) {
  return useQuery({
    queryKey: dashboardKeys.analysis(period),
    queryFn: () => call(dashboardContracts.analysis, { query: period }),
    placeholderData: keepPreviousData,
  });
}
