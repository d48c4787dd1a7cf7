import {
  TOUR_STEPS,
  TOUR_VERSION,
  type Tour,
  type TourStep,
  type tourUpdateSchema,
} from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { companyLogos, files, tourProgress } from '../../db/schema/index.ts';
import { getCompanyDetails } from '../company/company-details.service.ts';
import { whatsappConnected } from './whatsapp-connected.ts';

type Update = z.output<typeof tourUpdateSchema>;

/**
 * Which steps' real actions happened, read from the company's data: a logo saved, the details an invoice needs
 * complete, a file of the company ready, WhatsApp connected. Clicking "next" changes none of them.
 */
async function stepsDone(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
): Promise<Record<TourStep, boolean>> {
  const [[logo], details, [file], whatsapp] = await Promise.all([
    ctx.db
      .select({ id: companyLogos.companyId })
      .from(companyLogos)
      .where(eq(companyLogos.companyId, companyId)),
    getCompanyDetails(ctx, actor),
    ctx.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.companyId, companyId), eq(files.status, 'ready')))
      .limit(1),
    whatsappConnected(ctx, companyId),
  ]);
  return { logo: Boolean(logo), companyDetails: details.complete, documents: Boolean(file), whatsapp };
}

async function progressRow(ctx: AppContext, userId: string) {
  const [row] = await ctx.db
    .select()
    .from(tourProgress)
    .where(and(eq(tourProgress.userId, userId), eq(tourProgress.version, TOUR_VERSION)));
  return row;
}

/**
 * The caller's tour of the current version. Once every step is done it is completed (and stays so, stored with
 * the time); it resumes at the step the caller was at, or else at the first one not done.
 */
export async function getTour(ctx: AppContext, actor: Actor): Promise<Tour> {
  const companyId = ownCompany(actor, 'update');
  const done = await stepsDone(ctx, actor, companyId);
  let row = await progressRow(ctx, actor.userId);
  const allDone = TOUR_STEPS.every((step) => done[step]);
  if (allDone && !row?.completedAt) {
    [row] = await ctx.db
      .insert(tourProgress)
      .values({ userId: actor.userId, version: TOUR_VERSION, completedAt: new Date() })
      .onConflictDoUpdate({
        target: [tourProgress.userId, tourProgress.version],
        set: { completedAt: new Date(), updatedAt: new Date() },
      })
      .returning();
  }
  // Where the user left it, unless that step is done by now: then the first one still open.
  const stored = row?.currentStep as TourStep | null | undefined;
  const firstOpen = TOUR_STEPS.find((step) => !done[step]) ?? TOUR_STEPS[0];
  const status = row?.completedAt ? 'completed' : row?.skippedAt ? 'skipped' : row ? 'active' : 'new';
  return {
    version: TOUR_VERSION,
    steps: TOUR_STEPS.map((id) => ({ id, done: done[id] })),
    currentStep: stored && !done[stored] ? stored : firstOpen,
    status,
  };
}

/**
 * Opens, resumes or skips the caller's tour and keeps their step. A completed tour stays completed: reopened from
 * the help menu it shows its steps, all done.
 */
export async function updateTour(ctx: AppContext, actor: Actor, update: Update): Promise<Tour> {
  ownCompany(actor, 'update');
  const values = {
    skippedAt: update.state === 'skipped' ? new Date() : null,
    ...(update.currentStep ? { currentStep: update.currentStep } : {}),
    updatedAt: new Date(),
  };
  await ctx.db
    .insert(tourProgress)
    .values({ userId: actor.userId, version: TOUR_VERSION, ...values })
    .onConflictDoUpdate({ target: [tourProgress.userId, tourProgress.version], set: values });
  return getTour(ctx, actor);
}
