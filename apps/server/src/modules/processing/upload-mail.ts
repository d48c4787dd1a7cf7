import type { AppContext } from '../../app-context.ts';
import { translatorFor } from '../../i18n/translator.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { FAILURE_VARS, failureMessageKey } from './failure-message.ts';
import { claimFinishedUpload, uploader, uploadOutcomes } from './uploads.queries.ts';

/**
 * Sends the uploader one mail once every file of an upload has finished, listing each file's outcome. The
 * `notified_at` flip makes it exactly once, however many workers finish files of the upload at the same time.
 */
export async function notifyIfUploadFinished(ctx: AppContext, uploadId: string | null): Promise<void> {
  if (!uploadId) return;
  const emailId = await ctx.db.transaction(async (tx) => {
    const upload = await claimFinishedUpload(tx, uploadId);
    if (!upload?.userId) return null;
    const user = await uploader(tx, upload.userId);
    const list = await uploadOutcomes(tx, uploadId);
    if (!user || list.length === 0) return null;
    const t = translatorFor(user.language);
    const lines = list.map((f) => {
      const outcome =
        f.status === 'ready'
          ? t('mail.uploadFinished.ready', { passages: String(f.passageCount) })
          : f.status === 'failed'
            ? t('mail.uploadFinished.failed', {
                reason: t(
                  failureMessageKey(f.errorCode ?? 'FILE_PROCESSING_FAILED', f.errorDetail),
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
      name: user.firstName ?? user.email,
      actionPath: upload.divisionId ? `/divisions/${upload.divisionId}` : '/divisions',
      values: { division: list[0]!.division ?? '' },
      lines,
      userId: upload.userId,
      companyId: upload.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}
