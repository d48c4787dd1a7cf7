import { z } from 'zod';
import { PLAN_KEYS, SUBSCRIPTION_STATUSES } from './billing.contract.ts';
import { dashboardPeriodQuerySchema } from './dashboard-period.ts';
import { knowledgeGapSchema } from './feedback.contract.ts';
import { defineContract } from './route-contract.ts';

export const NEXT_STEPS = ['verifyEmail', 'completeProfile', 'uploadDocuments'] as const;

export const dashboardSchema = z
  .object({
    company: z.object({ id: z.uuid(), name: z.string().nullable() }),
    plan: z
      .object({
        plan: z.enum(PLAN_KEYS),
        status: z.enum(SUBSCRIPTION_STATUSES),
        startsAt: z.iso.datetime(),
        endsAt: z.iso.datetime(),
        daysRemaining: z.number().int(),
        daysTotal: z.number().int(),
      })
      .nullable(),
    nextSteps: z.array(z.object({ step: z.enum(NEXT_STEPS), done: z.boolean() })),
    /** The figures of chat and feedback. */
    chat: z.object({
      filesReady: z.number().int(),
      questionsThisWeek: z.number().int(),
      questionsLastWeek: z.number().int(),
      /** Share of this week's answers that found a relevant passage (null: no questions). */
      answeredShare: z.number().nullable(),
      /** Likes among likes and dislikes over the last 30 days (null: none given). */
      satisfaction: z.number().nullable(),
      /** Questions, likes and dislikes per day over the last 30 days. */
      series: z.array(
        z.object({
          date: z.iso.date(),
          questions: z.number().int(),
          likes: z.number().int(),
          dislikes: z.number().int(),
        }),
      ),
      /** The newest knowledge gaps (at most five). */
      gaps: z.array(knowledgeGapSchema),
    }),
    /** Offers and invoices (/handwerk), for a caller who may read them; amounts are gross, in cents. */
    sales: z
      .object({
        openOffers: z.number().int(),
        openOffersCents: z.number().int(),
        unpaidInvoices: z.number().int(),
        unpaidCents: z.number().int(),
        overdueInvoices: z.number().int(),
        overdueCents: z.number().int(),
      })
      .nullable(),
  })
  .meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof dashboardSchema>;

const count = z.number().int();
const day = z.iso.date();

/**
 * The platform's figures over a period (days in UTC, both ends inclusive), for the operator's dashboard and the
 * analysis area. Every day and every week of the period is listed, also those with nothing. Weeks start on Monday;
 * the first and last week count only their days inside the period. A caller who belongs to a company sees only
 * that company's figures.
 */
export const platformFiguresSchema = z
  .object({
    period: z.object({ from: day, to: day }),
    totals: z.object({
      /** Companies at the end of the period, and those created in it. */
      companies: count,
      newCompanies: count,
      /** New accounts of company users (data managers and employees) in the period. */
      signUps: count,
      /** Company users who signed in or asked a question in the period (each once). */
      activeUsers: count,
      /** Files stored at the end of the period (whatever their status) and their size, and those added in it. */
      files: count,
      storageBytes: count,
      filesAdded: count,
      bytesAdded: count,
      questions: count,
      /** Finished answers, and those among them that found a relevant passage. */
      answers: count,
      answered: count,
      /** `answered / answers`, null without answers. */
      answeredShare: z.number().nullable(),
      likes: count,
      dislikes: count,
      /** `likes / (likes + dislikes)`, null without either. */
      satisfaction: z.number().nullable(),
      /** Files whose processing failed in the period (and that were not processed again since). */
      failedFiles: count,
    }),
    daily: z.array(
      z.object({
        date: day,
        activeUsers: count,
        questions: count,
        answers: count,
        answered: count,
        likes: count,
        dislikes: count,
        failedFiles: count,
      }),
    ),
    weekly: z.array(
      z.object({
        /** The Monday the week starts on (it may lie before the period). */
        week: day,
        newCompanies: count,
        signUps: count,
        activeUsers: count,
        filesAdded: count,
        bytesAdded: count,
        /** Files stored, and their size, at the end of the week (or of the period). */
        files: count,
        storageBytes: count,
      }),
    ),
  })
  .meta({ id: 'PlatformFigures' });
export type PlatformFigures = z.infer<typeof platformFiguresSchema>;

export const adminDashboardSchema = z
  .object({
    companies: z.number().int(),
    users: z.record(z.string(), z.number().int()),
    emails: z.record(z.string(), z.number().int()),
    signInsLast7Days: z.number().int(),
    failedSignInsLast7Days: z.number().int(),
    /** The figures over the requested period. */
    figures: platformFiguresSchema,
  })
  .meta({ id: 'AdminDashboard' });
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

export const dashboardContracts = {
  company: defineContract({
    method: 'GET',
    path: '/dashboard',
    operationId: 'dashboard',
    summary: "The data manager's dashboard: company, plan with days remaining, next steps",
    tags: ['dashboard'],
    permission: { action: 'read', subject: 'user' },
    responses: { 200: dashboardSchema },
  }),
  admin: defineContract({
    method: 'GET',
    path: '/admin/dashboard',
    operationId: 'adminDashboard',
    summary:
      "The operator's dashboard: companies, users by kind, e-mails by status, sign-ins, and the platform's figures over a period (default the last 30 days, at most 366; PERIOD_INVALID otherwise)",
    tags: ['admin'],
    permission: { action: 'read', subject: 'admin' },
    querystring: dashboardPeriodQuerySchema,
    responses: { 200: adminDashboardSchema },
  }),
  analysis: defineContract({
    method: 'GET',
    path: '/analysis/dashboard',
    operationId: 'analysisDashboard',
    summary:
      "The analysis area (read-only): the platform's figures over a period (default the last 30 days, at most 366; PERIOD_INVALID otherwise)",
    tags: ['analysis'],
    permission: { action: 'read', subject: 'analysis' },
    querystring: dashboardPeriodQuerySchema,
    responses: { 200: platformFiguresSchema },
  }),
};
