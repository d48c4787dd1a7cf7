import { z } from 'zod';
import { defineContract } from './route-contract.ts';

/** Raised when the steps change: everyone sees the new tour once, whatever they did with the old one. */
export const TOUR_VERSION = 1;
/** The spec's four steps, in order (section 2: logo, company details, documents, WhatsApp chat). */
export const TOUR_STEPS = ['logo', 'companyDetails', 'documents', 'whatsapp'] as const;
export type TourStep = (typeof TOUR_STEPS)[number];

export const tourSchema = z
  .object({
    version: z.number().int(),
    /** Each step with whether its real action happened (computed from the company's data, never from clicks). */
    steps: z.array(z.object({ id: z.enum(TOUR_STEPS), done: z.boolean() })),
    /** The step the user was at when they last left the tour: where it resumes. */
    currentStep: z.enum(TOUR_STEPS),
    /** new: never opened; active: under way; skipped: put aside (the help menu brings it back); completed: every step done. */
    status: z.enum(['new', 'active', 'skipped', 'completed']),
  })
  .meta({ id: 'Tour' });
export type Tour = z.infer<typeof tourSchema>;

export const tourUpdateSchema = z.strictObject({
  /** active: open or resume (also from the help menu); skipped: put it aside. */
  state: z.enum(['active', 'skipped']),
  currentStep: z.enum(TOUR_STEPS).optional(),
});
export type TourUpdate = z.input<typeof tourUpdateSchema>;

const tags = ['company'];
/** The tour guides through setting up the company: whoever may do that takes it. */
const permission = { action: 'update', subject: 'Company' } as const;

export const tourContracts = {
  get: defineContract({
    method: 'GET',
    path: '/tour',
    operationId: 'getTour',
    summary: "The caller's guided tour: its steps with their done state and where the caller is",
    tags,
    permission,
    responses: { 200: tourSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/tour',
    operationId: 'updateTour',
    summary: 'Opens, resumes or skips the guided tour, and keeps the step the caller is at',
    tags,
    permission,
    body: tourUpdateSchema,
    responses: { 200: tourSchema },
  }),
};
