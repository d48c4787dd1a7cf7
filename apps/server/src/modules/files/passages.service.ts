import { fileAccess } from '../../access/file.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { loadVisibleFile } from './files.service.ts';
import { type PassageRecord, readablePassage, readablePassagesOfFile } from './passages.queries.ts';

/** One published passage of a file the actor may read; any other (another company's, replaced, unknown) is 404. */
export async function getPassage(ctx: AppContext, actor: Actor, passageId: string): Promise<PassageRecord> {
  const passage = await readablePassage(ctx.db, passageId, fileAccess.where(actor, 'read', 'f'));
  if (!passage) throw notFound();
  return passage;
}

/**
 * The text of a file the actor may read, as its published passages in order (each citable by its id), `limit` of
 * them from position `start`; `nextStart` is where the next run begins, null after the last.
 */
export async function getFileText(
  ctx: AppContext,
  actor: Actor,
  input: { fileId: string; start: number; limit: number },
) {
  const { file } = await loadVisibleFile(ctx, actor, input.fileId);
  const { passages, total } = await readablePassagesOfFile(
    ctx.db,
    input.fileId,
    fileAccess.where(actor, 'read', 'f'),
    input,
  );
  const end = input.start + passages.length;
  return {
    fileId: file.id,
    fileName: file.name,
    status: file.status,
    total,
    start: input.start,
    nextStart: end < total ? end : null,
    passages: passages.map(({ passageId, position, page, headingPath, text }) => ({
      passageId,
      position,
      page,
      headingPath,
      text,
    })),
  };
}
