import {
  type AdminKnowledgeFile,
  type KnowledgeFile,
  type Language,
  PROCESSING_STEPS,
} from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { divisions, files, users } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { FAILURE_VARS, failureMessageKey } from '../processing/failure-message.ts';

/** The columns a file is presented with (its division's and uploader's names joined in). */
export const fileColumns = {
  file: files,
  divisionName: divisions.name,
  uploaderEmail: users.email,
  /** The connector it is synced from: its name, and the address of its source. */
  connectorName: sql<string | null>`(select c.name from connectors c where c.id = files.connector_id)`,
  connectorUrl: sql<string | null>`(select c.url from connectors c where c.id = files.connector_id)`,
};

export type FileWithNames = {
  file: typeof files.$inferSelect;
  divisionName: string | null;
  uploaderEmail: string | null;
  connectorName: string | null;
  connectorUrl: string | null;
};

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

/** Sortable columns of file lists. */
export const FILE_SORTS = {
  name: sql`lower(${files.name})`,
  sizeBytes: files.sizeBytes,
  status: files.status,
  createdAt: files.createdAt,
  mimeType: files.mimeType,
};
