import { sendMailJob } from '../modules/mail/send-mail.job.ts';
import type { JobDefinition } from './job-definition.ts';

/** Every job the worker runs. */
export const ALL_JOBS = [sendMailJob] as JobDefinition<never>[];
