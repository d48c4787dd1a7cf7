import type { AnyJobDefinition } from './jobs/job-definition.ts';
import { pruneActivityJob } from './modules/activity/prune-activity.job.ts';
import { passwordResetMailJob } from './modules/auth/password-reset-mail.job.ts';
import { reviewPlansJob, stripeEventJob } from './modules/billing/billing.jobs.ts';
import { syncConnectorJob } from './modules/connectors/sync-connector.job.ts';
import { scheduleSyncsJob } from './modules/connectors/sync-queue.ts';
import { answerMailJob } from './modules/email-assistant/answer-mail.job.ts';
import { sendReplyJob } from './modules/email-assistant/send-reply.job.ts';
import { graphJob } from './modules/embedding/graph.job.ts';
import { reembedJob } from './modules/embedding/reembed.job.ts';
import { waitingInvitationsJob } from './modules/employees/waiting-invitations.job.ts';
import { requeueMailsJob } from './modules/mail/outbox.service.ts';
import { sendMailJob } from './modules/mail/send-mail.job.ts';
import { analyzeKnowledgeJob } from './modules/processing/analyze.job.ts';
import { extractFileJob, indexFileJob, resumeFilesJob } from './modules/processing/process-file.jobs.ts';
import { reformatJob } from './modules/processing/reformat.job.ts';
import { whatsappInboundJob } from './modules/whatsapp/whatsapp-inbound.job.ts';
import { whatsappReplyJob } from './modules/whatsapp/whatsapp-reply.job.ts';
import { requeueWhatsAppJob } from './modules/whatsapp/whatsapp-requeue.job.ts';

/** Every job the worker runs. */
export const ALL_JOBS = [
  sendMailJob,
  requeueMailsJob,
  extractFileJob,
  indexFileJob,
  resumeFilesJob,
  reembedJob,
  graphJob,
  analyzeKnowledgeJob,
  reformatJob,
  passwordResetMailJob,
  waitingInvitationsJob,
  pruneActivityJob,
  stripeEventJob,
  reviewPlansJob,
  answerMailJob,
  sendReplyJob,
  whatsappInboundJob,
  whatsappReplyJob,
  requeueWhatsAppJob,
  syncConnectorJob,
  scheduleSyncsJob,
] satisfies AnyJobDefinition[];

/**
 * Jobs of earlier versions: their queues (with any job still waiting in them) and schedules are removed at start.
 * The e-mail assistant's mailboxes are watched by `MailboxWatchers` now, not by a job per mailbox.
 */
export const RETIRED_JOBS = ['mail-assistant.watch', 'mail-assistant.ensure-watchers'];
