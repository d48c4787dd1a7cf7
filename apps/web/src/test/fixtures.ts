import {
  type Connector,
  DEFAULT_ROLES,
  type Division,
  interpolateRules,
  type KnowledgeFile,
  type MeResponse,
  type StorageUsage,
  type UserData,
  type UserKind,
} from '@werkwissen/shared';

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

/** A connector of the division, its first sync waiting. */
export function connector(overrides: Partial<Connector> = {}): Connector {
  return {
    id: '55555555-5555-4555-8555-555555555555',
    divisionId: DIVISION_ID,
    kind: 'webdav',
    name: 'NAS',
    url: 'https://cloud.example.com/remote.php/dav/files/anna/',
    userName: 'anna',
    folder: 'Preise',
    fileTypes: [],
    intervalMinutes: 60,
    status: 'active',
    syncState: 'queued',
    lastSyncAt: null,
    lastResult: null,
    lastError: null,
    lastErrorCode: null,
    failureCount: 0,
    fileCount: 0,
    createdAt: '2025-03-01T09:00:00.000Z',
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
    errorMessageKey: null,
    passageCount: 42,
    pageCount: 12,
    language: 'de',
    ocr: null,
    replacesFileId: null,
    steps: [],
    uploadedBy: 'Dana Datenverwalterin',
    source: null,
    createdAt: '2025-03-01T09:30:00.000Z',
    readyAt: '2025-03-01T09:31:00.000Z',
    ...overrides,
  };
}

const USER_ID = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const COMPANY_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

/** The server's answer about a signed-in user of this kind, with its default role's rules (`GET /auth/me`). */
export function session(kind: UserKind): MeResponse {
  const userData: UserData = {
    id: USER_ID,
    email: 'kai@firma.example',
    firstName: 'Kai',
    lastName: 'Berg',
    fullName: 'Kai Berg',
    phone: null,
    language: 'en',
    country: null,
    kind,
    companyId: COMPANY_ID,
    companyName: 'Firma',
    emailVerified: true,
    createdAt: '2025-03-01T10:00:00.000Z',
  };
  const rules = interpolateRules(DEFAULT_ROLES[kind].rules, { user: { id: USER_ID, companyId: COMPANY_ID } });
  return { userData, userRole: kind, userAbilityRules: rules, csrfToken: 'csrf', impersonation: null };
}

/** A stored session of a user of this kind with its default role's rules, as the AuthProvider reads it at start. */
export function signedInAs(kind: UserKind) {
  const { userData, userAbilityRules } = session(kind);
  localStorage.setItem('userData', JSON.stringify(userData));
  localStorage.setItem('userRole', kind);
  localStorage.setItem('userAbilityRules', JSON.stringify(userAbilityRules));
}
