import { z } from 'zod';
import { knowledgeGapSchema } from './feedback.contract.ts';
import { defineContract } from './route-contract.ts';

export const NEXT_STEPS = ['verifyEmail', 'completeProfile', 'uploadDocuments'] as const;

export const dashboardSchema = z
  .object({
    company: z.object({ id: z.uuid(), name: z.string().nullable() }),
    plan: z
      .object({
        plan: z.enum(['trial', 'monthly', 'halfYearly']),
        status: z.enum(['active', 'expired', 'cancelled']),
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
  })
  .meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof dashboardSchema>;

export const adminDashboardSchema = z
  .object({
    companies: z.number().int(),
    users: z.record(z.string(), z.number().int()),
    emails: z.record(z.string(), z.number().int()),
    signInsLast7Days: z.number().int(),
    failedSignInsLast7Days: z.number().int(),
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
    summary: "The operator's dashboard: companies, users by kind, e-mails by status, sign-ins",
    tags: ['admin'],
    permission: { action: 'read', subject: 'admin' },
    responses: { 200: adminDashboardSchema },
  }),
};
