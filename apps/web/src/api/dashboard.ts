import { useQuery } from '@tanstack/react-query';
import { dashboardContracts } from '@werkwissen/shared';
import { call } from './http.ts';

/** Query keys of the dashboards (figures drawn from files, chats, feedback and the account). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  company: () => [...dashboardKeys.all, 'company'] as const,
  admin: () => [...dashboardKeys.all, 'admin'] as const,
};

/** The data manager's dashboard: company, plan, next steps and chat figures. */
export function useCompanyDashboard() {
  return useQuery({ queryKey: dashboardKeys.company(), queryFn: () => call(dashboardContracts.company) });
}

/** The operator's dashboard (also the analysis area's). */
export function useAdminDashboard() {
  return useQuery({ queryKey: dashboardKeys.admin(), queryFn: () => call(dashboardContracts.admin) });
}
