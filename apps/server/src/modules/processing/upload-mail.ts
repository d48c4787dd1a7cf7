import type { Language } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { translatorFor } from '../../i18n/translator.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { FAILURE_VARS, failureMessageKey } from './failure-message.ts';

/**
 * Sends the uploader one mail once every file of an upload has finished, listing each file's outcome. The
 * `notified_at` flip makes it exactly once, however many workers finish files of the upload at the same time.
 */
export async function notifyIfUploadFinished(ctx: AppContext, uploadId: string | null): Promise<void> {
  if (!uploadId) return;
  const emailId = await ctx.db.transaction(async (tx) => {
    const { rows: claimed } = await tx.execute<{
      user_id: string | null;
      division_id: string | null;
      company_id: string;
    }>(sql`
      update uploads u set notified_at = now()
      where u.id = ${uploadId} and u.notified_at is null
        and not exists (select 1 from files f where f.upload_id = u.id and f.status not in ('ready', 'failed', 'cancelled'))
      returning u.user_id, u.division_id, u.company_id`);
    const upload = claimed[0];
    if (!upload?.user_id) return null;
    const { rows: users } = await tx.execute<{
      email: string;
      first_name: string | null;
      language: Language;
    }>(sql`select email, first_name, language from users where id = ${upload.user_id}`);
    const user = users[0];
    const { rows: list } = await tx.execute<{
      name: string;
      status: string;
      error_code: string | null;
      error_detail: string | null;
      passage_count: number;
      division: string | null;
    }>(sql`
      select f.name, f.status, f.error_code, f.error_detail, f.passage_count, d.name as division
      from files f left join divisions d on d.id = f.division_id
      where f.upload_id = ${uploadId} order by f.created_at, f.name`);
    if (!user || list.length === 0) return null;
    const t = translatorFor(user.language);
    const lines = list.map((f) => {
      const outcome =
        f.status === 'ready'
          ? t('mail.uploadFinished.ready', { passages: String(f.passage_count) })
          : f.status === 'failed'
            ? t('mail.uploadFinished.failed', {
                reason: t(
                  failureMessageKey(f.error_code ?? 'FILE_PROCESSING_FAILED', f.error_detail),
                  FAILURE_VARS,
                ),
              })
            : t('mail.uploadFinished.cancelled');
      return `${f.name}: ${outcome}`;
    });
    return writeToOutbox(tx, ctx, {
      to: user.email,
      template: 'uploadFinished',
      language: user.language,
      name: user.first_name ?? user.email,
      actionPath: upload.division_id ? `/divisions/${upload.division_id}` : '/divisions',
      values: { division: list[0]!.division ?? '' },
      lines,
      userId: upload.user_id,
      companyId: upload.company_id,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}
