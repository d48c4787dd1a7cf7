import { z } from 'zod';
import { multiLineText, requiredText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

export const MOODS = ['happy', 'neutral', 'negative'] as const;
export type Mood = (typeof MOODS)[number];

/** Who asked: the company's data manager, one of its employees, or an outside visitor of a public chat. */
export const FEEDBACK_ORIGINS = ['dataManager', 'employee', 'public'] as const;
export type FeedbackOrigin = (typeof FEEDBACK_ORIGINS)[number];

export const TAG_COLORS = ['primary', 'secondary', 'success', 'warning', 'error', 'info'] as const;

export const feedbackSchema = z
  .object({
    id: z.uuid(),
    messageId: z.uuid(),
    liked: z.boolean().nullable(),
    mood: z.enum(MOODS).nullable(),
    rating: z.number().int().min(1).max(5).nullable(),
    comment: z.string().nullable(),
    tagId: z.uuid().nullable(),
    tagName: z.string().nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Feedback' });
export type Feedback = z.infer<typeof feedbackSchema>;

/** Every field is optional: a like alone is feedback; later calls change only what they name. */
export const feedbackBodySchema = z
  .strictObject({
    liked: z.boolean().nullable().optional(),
    mood: z.enum(MOODS).nullable().optional(),
    rating: z.number().int().min(1).max(5).nullable().optional(),
    comment: multiLineText(2000).nullable().optional(),
    tagId: z.uuid().nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'validation.required' });
export type FeedbackBody = z.infer<typeof feedbackBodySchema>;

export const tagSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    color: z.enum(TAG_COLORS),
    feedbackCount: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Tag' });
export type Tag = z.infer<typeof tagSchema>;

export const tagBodySchema = z.strictObject({
  name: requiredText(40),
  color: z.enum(TAG_COLORS).default('primary'),
});

/** A change of name or colour: what is absent stays as it is (no defaults). */
export const tagUpdateSchema = z
  .strictObject({ name: requiredText(40).optional(), color: z.enum(TAG_COLORS).optional() })
  .refine((b) => Object.keys(b).length > 0, { message: 'validation.required' });

/** A cited passage as feedback keeps it: file name and page survive the file; the text is null once it is gone. */
export const reportCitationSchema = z.object({
  n: z.number().int(),
  fileId: z.uuid().nullable(),
  fileName: z.string(),
  page: z.number().int().nullable(),
  passageId: z.uuid().nullable(),
  text: z.string().nullable(),
});

export const feedbackReportItemSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    companyName: z.string().nullable(),
    origin: z.enum(FEEDBACK_ORIGINS),
    /** Name or contact of whoever gave the feedback. */
    givenBy: z.string(),
    chatId: z.uuid().nullable(),
    chatName: z.string(),
    divisions: z.array(z.string()),
    question: z.string(),
    answer: z.string(),
    noAnswer: z.boolean(),
    liked: z.boolean().nullable(),
    mood: z.enum(MOODS).nullable(),
    rating: z.number().int().nullable(),
    comment: z.string().nullable(),
    tagId: z.uuid().nullable(),
    tagName: z.string().nullable(),
    citations: z.array(reportCitationSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'FeedbackReportItem' });
export type FeedbackReportItem = z.infer<typeof feedbackReportItemSchema>;

const date = z.iso.date();
/** The filters of every report view (an administrator may also narrow to one company). */
export const reportFilterSchema = z.object({
  from: date.optional(),
  to: date.optional(),
  divisionId: z.uuid().optional(),
  origin: z.enum(FEEDBACK_ORIGINS).optional(),
  rating: z.coerce.number().int().min(1).max(5).optional(),
  mood: z.enum(MOODS).optional(),
  tagId: z.uuid().optional(),
  liked: z.enum(['true', 'false']).optional(),
  companyId: z.uuid().optional(),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;

export const feedbackSeriesSchema = z
  .object({
    items: z.array(
      z.object({
        date,
        questions: z.number().int(),
        likes: z.number().int(),
        dislikes: z.number().int(),
        feedback: z.number().int(),
        averageRating: z.number().nullable(),
      }),
    ),
  })
  .meta({ id: 'FeedbackSeries' });
export type FeedbackSeries = z.infer<typeof feedbackSeriesSchema>;

/** Questions the knowledge did not answer well, grouped when they ask the same thing. */
export const knowledgeGapSchema = z
  .object({
    question: z.string(),
    /** Up to five other wordings of the same question. */
    variants: z.array(z.string()),
    count: z.number().int(),
    noAnswerCount: z.number().int(),
    negativeCount: z.number().int(),
    divisions: z.array(z.string()),
    lastAskedAt: z.iso.datetime(),
    companyName: z.string().nullable(),
  })
  .meta({ id: 'KnowledgeGap' });
export type KnowledgeGap = z.infer<typeof knowledgeGapSchema>;

const tags = ['feedback'];
const readFeedback = { action: 'read', subject: 'Feedback' } as const;

export const feedbackContracts = {
  give: defineContract({
    method: 'PUT',
    path: '/messages/:messageId/feedback',
    operationId: 'giveFeedback',
    summary: 'Likes, dislikes, rates, tags or comments an answer in one of the caller’s conversations',
    tags,
    permission: { action: 'create', subject: 'Feedback' },
    params: uuidParam('messageId'),
    body: feedbackBodySchema,
    responses: { 200: feedbackSchema },
  }),
  list: defineContract({
    method: 'GET',
    path: '/feedback',
    operationId: 'listFeedback',
    summary: "Feedback on answers: the company's for a data manager, every company's for an administrator",
    tags,
    permission: readFeedback,
    querystring: listQuerySchema.extend(reportFilterSchema.shape),
    responses: { 200: listOf(feedbackReportItemSchema) },
  }),
  get: defineContract({
    method: 'GET',
    path: '/feedback/:feedbackId',
    operationId: 'getFeedback',
    summary: 'One feedback with its question, answer and cited passages',
    tags,
    permission: readFeedback,
    params: uuidParam('feedbackId'),
    responses: { 200: feedbackReportItemSchema },
  }),
  export: defineContract({
    method: 'GET',
    path: '/feedback-export',
    operationId: 'exportFeedback',
    summary: 'The filtered feedback as CSV (UTF-8 with BOM, for spreadsheets)',
    tags,
    permission: readFeedback,
    querystring: reportFilterSchema,
    responses: { 200: z.string().meta({ description: 'text/csv' }) },
  }),
  series: defineContract({
    method: 'GET',
    path: '/feedback-series',
    operationId: 'feedbackSeries',
    summary: 'Questions and feedback per day over the filtered period (default: the last 30 days)',
    tags,
    permission: readFeedback,
    querystring: reportFilterSchema,
    responses: { 200: feedbackSeriesSchema },
  }),
  gaps: defineContract({
    method: 'GET',
    path: '/knowledge-gaps',
    operationId: 'knowledgeGaps',
    summary: 'Questions that found no relevant passage or drew negative feedback, grouped by what they ask',
    tags,
    permission: readFeedback,
    querystring: reportFilterSchema.pick({
      from: true,
      to: true,
      divisionId: true,
      origin: true,
      companyId: true,
    }),
    responses: { 200: z.object({ items: z.array(knowledgeGapSchema) }) },
  }),
};

const tagParams = uuidParam('tagId');
export const tagContracts = {
  list: defineContract({
    method: 'GET',
    path: '/tags',
    operationId: 'listTags',
    summary: "The company's feedback tags",
    tags: ['tags'],
    permission: { action: 'read', subject: 'Tag' },
    responses: { 200: z.object({ items: z.array(tagSchema) }) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/tags',
    operationId: 'createTag',
    summary: 'Adds a feedback tag',
    tags: ['tags'],
    permission: { action: 'create', subject: 'Tag' },
    body: tagBodySchema,
    responses: { 201: tagSchema },
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/tags/:tagId',
    operationId: 'updateTag',
    summary: 'Renames or recolours a tag',
    tags: ['tags'],
    permission: { action: 'update', subject: 'Tag' },
    params: tagParams,
    body: tagUpdateSchema,
    responses: { 200: tagSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/tags/:tagId',
    operationId: 'deleteTag',
    summary: 'Deletes a tag; feedback that carried it keeps no tag',
    tags: ['tags'],
    permission: { action: 'delete', subject: 'Tag' },
    params: tagParams,
    responses: { 204: z.undefined() },
  }),
};
