import {
  type AdminKnowledgeFile,
  type KnowledgeFile,
  type Language,
  PROCESSING_STEPS,
} from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';
import { FAILURE_VARS, failureMessageKey } from '../processing/failure-message.ts';
import type { FileWithNames } from './files.queries.ts';

export function presentFile(row: FileWithNames, lang: Language): KnowledgeFile {
  const f = row.file;
  return {
    id: f.id,
    divisionId: f.divisionId,
    divisionName: row.divisionName ?? '',
    name: f.name,
    sizeBytes: f.sizeBytes,
    mimeType: f.mimeType,
    kind: f.kind,
    status: f.status,
    progress: f.progress,
    errorCode: f.errorCode,
    errorMessage: f.errorCode
      ? translate(lang, failureMessageKey(f.errorCode, f.errorDetail), FAILURE_VARS)
      : null,
    errorMessageKey: f.errorCode ? failureMessageKey(f.errorCode, f.errorDetail) : null,
    passageCount: f.passageCount,
    pageCount: f.pageCount,
    language: f.language,
    ocr: f.ocrPages ? { pages: f.ocrPages, meanConfidence: f.ocrConfidence ?? 0 } : null,
    replacesFileId: f.replacesFileId,
    steps: PROCESSING_STEPS.flatMap((step) => {
      const times = f.steps[step];
      return times ? [{ step, startedAt: times.startedAt, finishedAt: times.finishedAt }] : [];
    }),
    uploadedBy: row.uploaderEmail,
    source:
      f.connectorId && row.connectorName !== null
        ? {
            connectorId: f.connectorId,
            connectorName: row.connectorName,
            url: row.connectorUrl ?? '',
            path: f.sourcePath ?? '',
          }
        : null,
    createdAt: f.createdAt.toISOString(),
    readyAt: f.readyAt?.toISOString() ?? null,
  };
}

export function presentAdminFile(
  row: FileWithNames & { companyName: string | null },
  lang: Language,
): AdminKnowledgeFile {
  return { ...presentFile(row, lang), companyId: row.file.companyId, companyName: row.companyName };
}
