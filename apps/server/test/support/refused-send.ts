import type { AnyJobDefinition } from '../../src/jobs/job-definition.ts';
import type { JobQueue } from '../../src/jobs/job-queue.ts';

/**
 * Makes the job queue refuse the first send of `job`, as pg-boss does when its connections stay busy past their wait
 * on a loaded machine, until `restore` (call it in a `finally`). `refused` counts the refusals.
 */
export function refuseFirstSend(jobs: JobQueue, job: AnyJobDefinition) {
  const send = jobs.send.bind(jobs);
  let refused = 0;
  jobs.send = (async (...args: Parameters<typeof send>) => {
    if (args[0] === job && refused++ === 0) throw new Error('timeout exceeded when trying to connect');
    return send(...args);
  }) as typeof jobs.send;
  return {
    refused: () => refused,
    restore: () => {
      jobs.send = send;
    },
  };
}
