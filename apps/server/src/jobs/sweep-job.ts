import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { defineJob } from './job-definition.ts';

/**
 * A sweep: a job every five minutes that queues again the work whose job a crash or a failed send lost after its
 * commit (`sweep` finds it, queues it and says how many), so that it does not wait for the next start. At most one
 * waits at a time.
 */
export function defineSweepJob(name: string, sweep: (ctx: AppContext) => Promise<number>, found: string) {
  return defineJob({
    name,
    schema: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 5 * 60,
    policy: 'short',
    cron: '*/5 * * * *',
    async handler(_data, ctx) {
      const requeued = await sweep(ctx);
      if (requeued > 0) ctx.log.info({ requeued }, found);
    },
  });
}
