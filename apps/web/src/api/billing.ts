import { useQuery } from '@tanstack/react-query';
import {
  adminBillingContracts,
  billingContracts,
  type PlanKey,
  type PlanLimit,
  type planAssignmentBodySchema,
  type planUpdateBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { buildUrl, call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of billing: the company's plan and invoices, the operator's payments and plan catalogue. */
export const billingKeys = {
  all: ['billing'] as const,
  status: () => [...billingKeys.all, 'status'] as const,
  overview: () => [...billingKeys.all, 'overview'] as const,
  invoices: () => [...billingKeys.all, 'invoices'] as const,
  invoice: (id: string) => [...billingKeys.all, 'invoice', id] as const,
  payments: () => [...billingKeys.all, 'payments'] as const,
  payment: (companyId: string) => [...billingKeys.all, 'payment', companyId] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
};

/** The company's plan for every member: whether it ended or needs renewal (the banner, the disabled actions). */
export function useBillingStatus(enabled = true) {
  return useQuery({
    queryKey: billingKeys.status(),
    queryFn: () => call(billingContracts.status),
    enabled,
    staleTime: 60_000,
  });
}

const overviewQuery = { queryKey: billingKeys.overview(), queryFn: () => call(billingContracts.overview) };

/** The billing tab: plan, usage, plans on offer. `poll` reloads it while a payment is being confirmed. */
export function useBilling(poll = false) {
  return useQuery({ ...overviewQuery, refetchInterval: poll ? 2000 : false });
}

/**
 * Whether the company's plan is full for a limited resource (the data manager's add buttons are disabled then), with
 * the plan's maximum. Only asked of whoever may read the plan; for anyone else it is never full.
 */
export function usePlanLimit(limit: PlanLimit, enabled: boolean) {
  const { data } = useQuery({ ...overviewQuery, enabled });
  const usage = data?.usage.find((u) => u.limit === limit);
  const max = usage?.max ?? null;
  return { full: enabled && max !== null && usage!.used >= max, max };
}

/** The data table's source for invoices (the company's, or every company's for the operator). */
export const invoiceTable = {
  queryKey: billingKeys.invoices(),
  fetchPage: (query: ListQuery) => call(billingContracts.invoices, { query }),
};

export function useInvoice(invoiceId: string) {
  return useQuery({
    queryKey: billingKeys.invoice(invoiceId),
    queryFn: () => call(billingContracts.invoice, { params: { invoiceId } }),
  });
}

/** Where the browser downloads an invoice's PDF (the session cookie goes along). */
export const invoicePdfUrl = (invoiceId: string) => buildUrl(billingContracts.invoicePdf.path, { invoiceId });

/** Opens Stripe Checkout for a plan (or switches a running subscription): the answer is where to go. */
export function useCheckout(callbacks?: MutationCallbacks<PlanKey, { url: string }>) {
  return useApiMutation(
    {
      mutationFn: (plan: PlanKey) => call(billingContracts.checkout, { body: { plan } }),
      invalidates: () => [billingKeys.all],
    },
    callbacks,
  );
}

export function usePortal(callbacks?: MutationCallbacks<null, { url: string }>) {
  return useApiMutation(
    { mutationFn: () => call(billingContracts.portal), invalidates: () => [] },
    callbacks,
  );
}

export function useCancelSubscription(callbacks?: MutationCallbacks<null, unknown>) {
  return useApiMutation(
    {
      mutationFn: () => call(billingContracts.cancel),
      success: (t) => t('billing.actions.cancelled'),
      invalidates: () => [billingKeys.all],
    },
    callbacks,
  );
}

/** The operator's list of every company's plan. */
export const paymentTable = {
  queryKey: billingKeys.payments(),
  fetchPage: (query: ListQuery) => call(adminBillingContracts.payments, { query }),
};

export function usePayment(companyId: string) {
  return useQuery({
    queryKey: billingKeys.payment(companyId),
    queryFn: () => call(adminBillingContracts.payment, { params: { companyId } }),
  });
}

type Assignment = z.input<typeof planAssignmentBodySchema> & { companyId: string };

export function useAssignPlan(callbacks?: MutationCallbacks<Assignment, unknown>) {
  return useApiMutation(
    {
      mutationFn: ({ companyId, ...body }: Assignment) =>
        call(adminBillingContracts.assignPlan, { params: { companyId }, body }),
      success: (t) => t('admin.payments.assigned'),
      invalidates: () => [billingKeys.all],
    },
    callbacks,
  );
}

export function usePlans() {
  return useQuery({ queryKey: billingKeys.plans(), queryFn: () => call(adminBillingContracts.plans) });
}

type PlanUpdate = z.input<typeof planUpdateBodySchema> & { plan: PlanKey };

export function useUpdatePlan(callbacks?: MutationCallbacks<PlanUpdate, unknown>) {
  return useApiMutation(
    {
      mutationFn: ({ plan, ...body }: PlanUpdate) =>
        call(adminBillingContracts.updatePlan, { params: { plan }, body }),
      success: (t) => t('admin.plans.saved'),
      invalidates: () => [billingKeys.all],
    },
    callbacks,
  );
}
