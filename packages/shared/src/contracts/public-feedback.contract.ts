import { z } from 'zod';
import { botCheckField, plainText, singleLineText } from './fields.ts';
import { shareTokenField } from './public-chats.contract.ts';
import { defineContract, messageSchema } from './route-contract.ts';

/** What an anonymous visitor sends from `/feedback-21chatgpt`: the public chat (its share link), stars, a comment. */
export const publicFeedbackBodySchema = z.strictObject({
  chatToken: shareTokenField,
  rating: z.number({ message: 'publicFeedback.ratingRequired' }).int().min(1).max(5),
  comment: plainText(2000).optional(),
  name: singleLineText(100).optional(),
  botCheck: botCheckField.optional(),
});

export const publicFeedbackContracts = {
  submit: defineContract({
    method: 'POST',
    path: '/public/feedback',
    operationId: 'submitPublicFeedback',
    summary:
      "An anonymous visitor's rating and comment on a public chat (bot-checked); shown in the company's public-feedback report",
    tags: ['public-chats'],
    permission: 'public',
    body: publicFeedbackBodySchema,
    responses: { 201: messageSchema },
  }),
};
