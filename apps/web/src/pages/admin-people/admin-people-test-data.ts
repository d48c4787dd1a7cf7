import type { AdminCompany, DataManager, DataManagerDetail, PublicUser } from '@werkwissen/shared';

export const DM_ID = '3f1e2d3c-4b5a-4697-8a8b-9c0d1e2f3a4b';
export const COMPANY_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';

export const dataManager: DataManager = {
  id: DM_ID,
  email: 'dana.berg@berg-sanitaer.example',
  firstName: 'Dana',
  lastName: 'Berg',
  phone: '+49 151 2345678',
  language: 'de',
  status: 'active',
  companyId: COMPANY_ID,
  companyName: 'Berg Sanitär GmbH',
  companySuspended: false,
  plan: 'trial',
  storageBytes: 3 * 1024 * 1024,
  lastSignInAt: '2026-11-20T09:30:00.000Z',
  createdAt: '2026-10-01T08:00:00.000Z',
};

export const dataManagerDetail: DataManagerDetail = {
  ...dataManager,
  company: {
    id: COMPANY_ID,
    name: 'Berg Sanitär GmbH',
    suspendedAt: null,
    suspendedReason: null,
    createdAt: '2026-10-01T08:00:00.000Z',
  },
  subscription: { plan: 'trial', status: 'active', endsAt: '2026-12-01T08:00:00.000Z' },
  storage: { usedBytes: 3 * 1024 * 1024, limitBytes: 5 * 1024 * 1024 * 1024 },
  employees: 1,
  team: [
    {
      id: 'e1e2e3e4-0000-4000-8000-000000000001',
      email: 'mia.koch@berg-sanitaer.example',
      firstName: 'Mia',
      lastName: 'Koch',
      status: 'active',
    },
  ],
  divisions: [{ id: 'd1d2d3d4-0000-4000-8000-000000000001', name: 'Kundendienst', files: 12, bytes: 2048 }],
  recentSignIns: [{ at: '2026-11-20T09:30:00.000Z', ip: '203.0.113.7', userAgent: 'Firefox 140' }],
  recentActivity: [
    {
      id: 'a1a2a3a4-0000-4000-8000-000000000001',
      action: 'createDivision',
      method: 'POST',
      endpoint: '/api/v1/divisions',
      statusCode: 201,
      createdAt: '2026-11-20T09:31:00.000Z',
    },
  ],
};

export const company: AdminCompany = {
  id: COMPANY_ID,
  name: 'Berg Sanitär GmbH',
  dataManagerEmail: dataManager.email,
  plan: 'monthly',
  users: 5,
  storageBytes: 3 * 1024 * 1024,
  lastActivityAt: '2026-11-20T09:31:00.000Z',
  suspendedAt: null,
  suspendedReason: null,
  createdAt: '2026-10-01T08:00:00.000Z',
};

export const publicUser: PublicUser = {
  id: 'b1b2b3b4-0000-4000-8000-000000000001',
  name: 'Vera Gast',
  email: 'vera@besuch.example',
  phone: null,
  companyId: COMPANY_ID,
  companyName: 'Berg Sanitär GmbH',
  chats: [{ id: 'c1c2c3c4-0000-4000-8000-000000000001', name: 'Heizungsfragen' }],
  firstSeenAt: '2026-11-01T10:00:00.000Z',
  lastSeenAt: '2026-11-21T10:00:00.000Z',
};
