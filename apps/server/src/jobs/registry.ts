import { pruneActivityJob } from '../modules/activity/prune-activity.job.ts';
import { passwordResetMailJob } from '../modules/auth/password-reset-mail.job.ts';
import { reviewPlansJob, stripeEventJob } from '../modules/billing/billing.jobs.ts';
import { answerMailJob } from '../modules/email-assistant/answer-mail.job.ts';
import { ensureWatchersJob, watchMailboxJob } from '../modules/email-assistant/watch-mailbox.job.ts';
import { graphJob } from '../modules/embedding/graph.job.ts';
import { reembedJob } from '../modules/embedding/reembed.job.ts';
import { sendMailJob } from '../modules/mail/send-mail.job.ts';
import { analyzeKnowledgeJob } from '../modules/processing/analyze.job.ts';
import { extractFileJob, indexFileJob } from '../modules/processing/process-file.jobs.ts';
import { reformatJob } from '../modules/processing/reformat.job.ts';
import { whatsappInboundJob, whatsappReplyJob } from '../modules/whatsapp/whatsapp.jobs.ts';
import type { JobDefinition } from './job-definition.ts';

/** Every job the worker runs. */
export const ALL_JOBS = [
  sendMailJob,
  extractFileJob,
  indexFileJob,
  reembedJob,
  graphJob,
  analyzeKnowledgeJob,
  reformatJob,
  passwordResetMailJob,
  pruneActivityJob,
  stripeEventJob,
  reviewPlansJob,
  watchMailboxJob,
  answerMailJob,
  ensureWatchersJob,
  whatsappInboundJob,
  whatsappReplyJob,
] as JobDefinition<never>[];
