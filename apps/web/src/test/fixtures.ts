import type { Division, KnowledgeFile, StorageUsage } from '@werkwissen/shared';

export const DIVISION_ID = '8b7f1a52-3c8e-4a53-9d2e-1f0c6a1b2c3d';
const MB = 1024 * 1024;

export function division(overrides: Partial<Division> = {}): Division {
  return {
    id: DIVISION_ID,
    name: 'Heizung',
    employeeCount: 2,
    fileCount: 1,
    sizeBytes: 3 * MB,
    createdAt: '2025-01-10T08:00:00.000Z',
    ...overrides,
  };
}

export const storage: StorageUsage = { usedBytes: 512 * MB, limitBytes: 5120 * MB, maxUploadBytes: 100 * MB };

export function knowledgeFile(overrides: Partial<KnowledgeFile> = {}): KnowledgeFile {
  return {
    id: '2f4c1d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    divisionId: DIVISION_ID,
    divisionName: 'Heizung',
    name: 'Wartungshandbuch.pdf',
    sizeBytes: 1_572_864,
    mimeType: 'application/pdf',
    kind: 'pdf',
    status: 'ready',
    progress: 100,
    errorCode: null,
    errorMessage: null,
    passageCount: 42,
    pageCount: 12,
    language: 'de',
    replacesFileId: null,
    steps: [],
    uploadedBy: 'Dana Datenverwalterin',
    createdAt: '2025-03-01T09:30:00.000Z',
    readyAt: '2025-03-01T09:31:00.000Z',
    ...overrides,
  };
}
