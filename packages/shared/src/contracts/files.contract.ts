import { z } from 'zod';
import { defineContract, fileResponse, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

/** Where a file is in its processing chain; `ready`, `failed` and `cancelled` are final. */
export const FILE_STATUSES = [
  'queued',
  'extracting',
  'chunking',
  'embedding',
  'indexing',
  'ready',
  'failed',
  'cancelled',
] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];
export const FINAL_FILE_STATUSES: readonly FileStatus[] = ['ready', 'failed', 'cancelled'];
export const PROCESSING_STEPS = ['extracting', 'chunking', 'embedding', 'indexing'] as const;
export type ProcessingStep = (typeof PROCESSING_STEPS)[number];

/** The kinds of document the product reads; the type is sniffed from the content, never taken from the name. */
export const FILE_KINDS = [
  'pdf',
  'docx',
  'txt',
  'md',
  'html',
  'csv',
  'png',
  'jpg',
  'tiff',
  'webp',
  'pptx',
  'xlsx',
  'ods',
  'odt',
  'odp',
  'rtf',
  'eml',
] as const;
/** Kinds that are pictures of text: read by OCR. */
export const IMAGE_FILE_KINDS: readonly FileKind[] = ['png', 'jpg', 'tiff', 'webp'];
export type FileKind = (typeof FILE_KINDS)[number];
export const UPLOAD_ACCEPT =
  '.pdf,.docx,.txt,.md,.markdown,.html,.htm,.csv,.png,.jpg,.jpeg,.tif,.tiff,.webp,.pptx,.xlsx,.ods,.odt,.odp,.rtf,.eml';
/** Most files one upload takes; more are refused before any is stored (`TOO_MANY_FILES`). */
export const UPLOAD_MAX_FILES = 20;

/** Why processing failed (each has the translated message `errors.<CODE>`). */
export const FILE_FAILURE_CODES = [
  'FILE_PASSWORD_PROTECTED',
  'FILE_NO_TEXT',
  'FILE_CORRUPT',
  'FILE_EMPTY',
  'FILE_ENCODING_UNKNOWN',
  'FILE_PARSE_LIMIT',
  'FILE_PROCESSING_FAILED',
] as const;
export type FileFailureCode = (typeof FILE_FAILURE_CODES)[number];

export const fileStepSchema = z.object({
  step: z.enum(PROCESSING_STEPS),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});

export const knowledgeFileSchema = z
  .object({
    id: z.uuid(),
    divisionId: z.uuid(),
    divisionName: z.string(),
    name: z.string(),
    sizeBytes: z.number().int(),
    mimeType: z.string(),
    kind: z.enum(FILE_KINDS),
    status: z.enum(FILE_STATUSES),
    /** 0-100 within the whole chain. */
    progress: z.number().int(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    /** The locale key of `errorMessage`, so that a client shows it in its own language. */
    errorMessageKey: z.string().nullable(),
    passageCount: z.number().int(),
    pageCount: z.number().int().nullable(),
    language: z.string().nullable(),
    /** Pages read by OCR (1 for a photo) and the mean word confidence of the OCR text (0-100); null without OCR. */
    ocr: z.object({ pages: z.array(z.number().int()), meanConfidence: z.number() }).nullable(),
    /** The older file with the same name this one replaces once it is ready. */
    replacesFileId: z.uuid().nullable(),
    steps: z.array(fileStepSchema),
    uploadedBy: z.string().nullable(),
    /**
     * Where a synced file comes from: its connector, the source's address and its path there (null: uploaded by
     * hand). Such a file is changed and deleted at its source, not here (FILE_SYNCED).
     */
    source: z
      .object({ connectorId: z.uuid(), connectorName: z.string(), url: z.string(), path: z.string() })
      .nullable(),
    createdAt: z.iso.datetime(),
    readyAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'KnowledgeFile' });
export type KnowledgeFile = z.infer<typeof knowledgeFileSchema>;

export const uploadResultSchema = z
  .object({
    uploadId: z.uuid().nullable(),
    results: z.array(
      z.object({
        name: z.string(),
        accepted: z.boolean(),
        file: knowledgeFileSchema.optional(),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
    message: z.string(),
  })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const adminFileSchema = knowledgeFileSchema
  .extend({ companyId: z.uuid(), companyName: z.string().nullable() })
  .meta({ id: 'AdminKnowledgeFile' });
export type AdminKnowledgeFile = z.infer<typeof adminFileSchema>;

const fileListQuery = listQuerySchema.extend({ status: z.enum(FILE_STATUSES).optional() });
const tags = ['files'];
const params = uuidParam('fileId');

export const fileContracts = {
  list: defineContract({
    method: 'GET',
    path: '/divisions/:divisionId/files',
    operationId: 'listFiles',
    summary: 'Files of a division with their processing status (sort by name, sizeBytes, status, createdAt)',
    tags,
    permission: { action: 'read', subject: 'File' },
    params: uuidParam('divisionId'),
    querystring: fileListQuery,
    responses: { 200: listOf(knowledgeFileSchema) },
  }),
  upload: defineContract({
    method: 'POST',
    path: '/divisions/:divisionId/files',
    operationId: 'uploadFiles',
    summary:
      'Uploads one or more files (multipart/form-data, field `files`); answers with a result per file. ' +
      'Only when every file is rejected does it answer with the first rejection as an error',
    tags,
    permission: { action: 'create', subject: 'File' },
    params: uuidParam('divisionId'),
    multipart: true,
    responses: { 201: uploadResultSchema },
  }),
  get: defineContract({
    method: 'GET',
    path: '/files/:fileId',
    operationId: 'getFile',
    summary: 'One file with the time of each processing step and any error',
    tags,
    permission: { action: 'read', subject: 'File' },
    params,
    responses: { 200: knowledgeFileSchema },
  }),
  content: defineContract({
    method: 'GET',
    path: '/files/:fileId/content',
    operationId: 'getFileContent',
    summary:
      'The original file as uploaded; a PDF is always a download (a browser viewer would run its scripts)',
    tags,
    permission: { action: 'read', subject: 'File' },
    params,
    querystring: z.object({ download: z.enum(['0', '1']).optional() }),
    // The file's own type as uploaded (PDF, Word, text …), named in its Content-Type header.
    responses: { 200: fileResponse('The file as uploaded', ['application/octet-stream']) },
  }),
  retry: defineContract({
    method: 'POST',
    path: '/files/:fileId/retry',
    operationId: 'retryFile',
    summary:
      'Processes a failed or cancelled file again (a ready file is reprocessed; its passages stay until done)',
    tags,
    permission: { action: 'update', subject: 'File' },
    params,
    responses: { 200: knowledgeFileSchema },
  }),
  cancel: defineContract({
    method: 'POST',
    path: '/files/:fileId/cancel',
    operationId: 'cancelFile',
    summary: 'Stops processing a file; nothing of it is indexed',
    tags,
    permission: { action: 'update', subject: 'File' },
    params,
    responses: { 200: knowledgeFileSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/files/:fileId',
    operationId: 'deleteFile',
    summary: 'Deletes a file, its stored original and all its passages at once',
    tags,
    permission: { action: 'delete', subject: 'File' },
    params,
    responses: { 204: z.null() },
  }),
  adminList: defineContract({
    method: 'GET',
    path: '/admin/files',
    operationId: 'adminListFiles',
    summary: 'The processing table: files of every company with their status',
    tags: ['admin'],
    permission: { action: 'read', subject: 'admin' },
    querystring: fileListQuery,
    responses: { 200: listOf(adminFileSchema) },
  }),
};
