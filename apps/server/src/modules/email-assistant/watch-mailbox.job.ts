import { sql } from 'drizzle-orm';
import type { ImapFlow } from 'imapflow';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob, type JobRun } from '../../jobs/job-definition.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { answerMailJob } from './answer-mail.job.ts';
import { failureOf, imapClient } from './mail-connection.ts';
import { type LeasedSetting, queueMail, releaseLease, skipLargeMail, takeLease } from './mailbox-cursor.ts';

/** How long one watch runs before it hands over to the next (so that no attempt outlives its expiry). */
const WATCH_SECONDS = 240;
/** At most this many new mails are read before the mailbox's list of new mails is asked for again. */
const BATCH = 50;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * One pass over the mailbox: the UIDs and sizes of the mails after the cursor first, then, in batches of BATCH, each
 * mail on its own: one over MAIL_ASSISTANT_MAX_MAIL_MB is stored as not answered from its envelope and never
 * downloaded, any other is downloaded, parsed, judged and stored with the cursor moved past it in one transaction,
 * then its answer queued. A changed UIDVALIDITY reads the whole mailbox again; mails seen before are known by their
 * Message-ID. Fetched with BODY.PEEK on a read-only mailbox: nothing is marked read.
 */
async function readNewMail(ctx: AppContext, client: ImapFlow, lease: LeasedSetting, signal: AbortSignal) {
  const box = client.mailbox;
  if (!box) return;
  const validity = String(box.uidValidity);
  if (lease.setting.uidValidity !== validity) {
    lease.setting.uidValidity = validity;
    lease.setting.lastUid = 0;
    await ctx.db.execute(sql`update email_settings set uid_validity = ${validity}, last_uid = 0
      where id = ${lease.setting.id}`);
  }
  if (box.exists === 0) return;
  const maxBytes = ctx.config.MAIL_ASSISTANT_MAX_MAIL_MB * 1024 * 1024;
  for (;;) {
    const after = lease.setting.lastUid;
    const found: Array<{ uid: number; size: number }> = [];
    for await (const message of client.fetch(`${after + 1}:*`, { uid: true, size: true }, { uid: true })) {
      if (message.uid > after) found.push({ uid: message.uid, size: message.size ?? 0 });
    }
    const batch = found.sort((a, b) => a.uid - b.uid).slice(0, BATCH);
    for (const { uid, size } of batch) {
      if (signal.aborted) return;
      const whole =
        size <= maxBytes && (await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true }));
      const source = whole ? whole.source : undefined;
      if (!source || source.length > maxBytes) {
        const head = await client.fetchOne(String(uid), { uid: true, envelope: true }, { uid: true });
        // A mail expunged meanwhile is passed by; one over the limit is noted as such.
        if (head) await skipLargeMail(ctx, lease, uid, head.envelope);
        continue;
      }
      const queued = await queueMail(ctx, lease, uid, source);
      if (queued) await ctx.jobs.send(answerMailJob, { inboundId: queued });
    }
    if (found.length <= BATCH) return;
  }
}

/** Queues the answers of mails stored as queued whose job may have been lost (a crash between commit and send). */
async function requeueStranded(ctx: AppContext, settingId: string) {
  const { rows } = await ctx.db.execute<{ id: string }>(sql`select id from email_inbound
    where setting_id = ${settingId} and status in ('queued', 'answering')
      and not exists (select 1 from pgboss.job j where j.name = ${answerMailJob.name}
        and j.data->>'inboundId' = email_inbound.id::text and j.state in ('created', 'retry', 'active'))`);
  for (const row of rows) await ctx.jobs.send(answerMailJob, { inboundId: row.id });
}

/**
 * Watches one mailbox for a while: the one worker holding its lease reads new mail at once, then waits in IDLE
 * (woken by the server's EXISTS) with a poll every MAIL_ASSISTANT_POLL_SECONDS as a safety net, and queues its own successor at the end.
 * A failed sign-in or a lost connection is stored for the settings screen and retried with backoff.
 */
async function watchMailbox(ctx: AppContext, settingId: string, run: JobRun): Promise<void> {
  const lease = await takeLease(ctx, settingId, run.id);
  if (!lease) return;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  run.signal.addEventListener('abort', onAbort, { once: true });
  const renew = setInterval(() => void lease.renew().catch(() => stop.abort()), 20_000);
  let client: ImapFlow | null = null;
  try {
    const password = new SecretBox(ctx.config.secrets.encryptionKey).open(lease.setting.passwordSealed);
    client = await imapClient(ctx.outbound.policy, { ...lease.setting, password });
    client.on('error', (error: unknown) =>
      ctx.log.info({ err: error, settingId }, 'mailbox connection error'),
    );
    let wake: () => void = () => {};
    client.on('exists', () => wake());
    client.on('close', () => stop.abort());
    await client.connect();
    await client.mailboxOpen('INBOX', { readOnly: true });
    await lease.checked(null);
    await requeueStranded(ctx, settingId);
    const until = Date.now() + WATCH_SECONDS * 1000;
    while (!stop.signal.aborted && Date.now() < until) {
      await readNewMail(ctx, client, lease, stop.signal);
      if (stop.signal.aborted) break;
      let announced = false;
      const woken = new Promise<void>((resolve) => {
        wake = () => {
          announced = true;
          resolve();
        };
      });
      void client.idle().catch(() => {});
      const poll = Math.min(ctx.config.MAIL_ASSISTANT_POLL_SECONDS * 1000, until - Date.now());
      await Promise.race([woken, sleep(poll, stop.signal)]);
      wake = () => {};
      if (stop.signal.aborted) break;
      // The safety net: selected again, so that a mailbox replaced under us (a new UIDVALIDITY) is read anew.
      if (!announced) await client.mailboxOpen('INBOX', { readOnly: true });
      await lease.checked(null);
    }
  } catch (error) {
    if (run.signal.aborted) return;
    await lease.checked(failureOf(error));
    throw error;
  } finally {
    clearInterval(renew);
    run.signal.removeEventListener('abort', onAbort);
    await client?.logout().catch(() => client?.close());
    await releaseLease(ctx, settingId, run.id);
  }
  if (!run.signal.aborted) await ctx.jobs.send(watchMailboxJob, { settingId });
}

export const watchMailboxJob = defineJob({
  name: 'mail-assistant.watch',
  schema: z.object({ settingId: z.uuid() }),
  retryLimit: 10,
  retryDelaySeconds: 15,
  expireInSeconds: WATCH_SECONDS + 120,
  handler: ({ settingId }, ctx, run) => watchMailbox(ctx, settingId, run),
});

/**
 * Every five minutes: a watch for each mailbox nobody watches (after the last retry of a failing one, or a lost
 * successor), so that every e-mail setting is read without anyone starting it.
 */
export const ensureWatchersJob = defineJob({
  name: 'mail-assistant.ensure-watchers',
  schema: z.object({}).passthrough(),
  retryLimit: 1,
  retryDelaySeconds: 30,
  expireInSeconds: 60,
  cron: '*/5 * * * *',
  async handler(_data, ctx) {
    const { rows } = await ctx.db.execute<{ id: string }>(sql`select s.id from email_settings s
      where (s.lease_until is null or s.lease_until < now())
        and not exists (select 1 from pgboss.job j where j.name = ${watchMailboxJob.name}
          and j.data->>'settingId' = s.id::text and j.state in ('created', 'retry', 'active'))`);
    for (const row of rows) await ctx.jobs.send(watchMailboxJob, { settingId: row.id });
  },
});
