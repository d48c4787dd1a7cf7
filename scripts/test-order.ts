import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = new URL('..', import.meta.url).pathname;

/**
 * Seconds each of the slowest test files took in CI's run of 66d01a2 (2 cores, four passes side by side; the longer
 * of its two engines). A pass runs its files on two workers, and vitest starts them in order of their size when it
 * has no results of its own, as in CI's fresh clone: the longest files (a few small ones that start servers and
 * wait on them) started last and ended a pass alone on one worker. Started first, the rest fill both workers around
 * them (decision 0092). The figures only order: one that is out of date costs time, not a result.
 */
const FILE_SECONDS: Record<string, number> = {
  'apps/server/test/connector-crash.test.ts': 325,
  'e2e/layout-fit.e2e.test.ts': 300,
  'apps/server/test/graceful-shutdown.test.ts': 273,
  'e2e/roles-staff.e2e.test.ts': 233,
  'e2e/guided-tour.e2e.test.ts': 232,
  'e2e/whatsapp.e2e.test.ts': 198,
  'apps/server/test/start-up.test.ts': 191,
  'apps/server/src/modules/email-assistant/mail-assistant.test.ts': 189,
  'e2e/chat.e2e.test.ts': 184,
  'e2e/offer-to-invoices.e2e.test.ts': 178,
  'apps/server/src/modules/files/files-bad-input.test.ts': 140,
  'e2e/connectors.e2e.test.ts': 126,
  'e2e/email-settings.e2e.test.ts': 124,
  'apps/server/src/modules/chat/chat.test.ts': 116,
  'apps/server/src/modules/whatsapp/whatsapp.test.ts': 109,
  'apps/server/src/http/access-matrix.test.ts': 103,
  'e2e/handwerk.e2e.test.ts': 101,
  'apps/server/test/processing-crash.test.ts': 94,
  'apps/server/test/production-stack.postgres.test.ts': 90,
  'apps/server/src/modules/processing/parser-pool.test.ts': 82,
  'apps/server/src/modules/sales-documents/e-invoice-validation.test.ts': 79,
  'apps/server/test/multi-process.test.ts': 77,
  'e2e/identity-flow.e2e.test.ts': 77,
  'e2e/widget.e2e.test.ts': 71,
  'e2e/locales.e2e.test.ts': 70,
  'apps/server/src/modules/processing/ocr-upload.test.ts': 69,
  'apps/server/src/modules/chat/providers.test.ts': 65,
  'apps/server/src/modules/sales-documents/draft-offer-languages.test.ts': 64,
  'apps/server/src/modules/chat-widget/chat-widget.test.ts': 62,
  'e2e/pdf-viewer.e2e.test.ts': 60,
  'apps/server/src/modules/connectors/connectors.test.ts': 56,
  'e2e/guard.e2e.test.ts': 56,
  'apps/server/src/modules/files/more-formats.test.ts': 54,
  'apps/server/src/jobs/job-queue.test.ts': 54,
  'apps/server/src/modules/email-assistant/mail-assistant-many.test.ts': 52,
  'apps/server/test/backup-restore.test.ts': 47,
  'e2e/operator-pages.e2e.test.ts': 40,
  'e2e/inbound-mails.e2e.test.ts': 40,
  'apps/server/src/modules/connectors/google-drive-connectors.test.ts': 40,
};

for (const file of Object.keys(FILE_SECONDS))
  if (!existsSync(`${root}${file}`))
    throw new Error(`scripts/test-order.ts lists ${file}, which is gone: remove or rename it there`);

/**
 * Vitest's order (group by group, then its results or the files' size), with the files of `FILE_SECONDS` first in
 * each group, longest first: the longest-first rule that packs a pass's files onto its workers with the shortest end.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = new Map(base.map((spec) => [spec, FILE_SECONDS[relative(root, spec.moduleId)] ?? 0]));
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // A stable sort: files of equal group and seconds (all the unlisted ones) keep vitest's order.
    return base.toSorted((a, b) => group(a) - group(b) || seconds.get(b)! - seconds.get(a)!);
  }
}
