import { Readable } from 'node:stream';
import type { UserKind } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../../test/support/api-client.ts';
import {
  insertChat,
  insertDivision,
  insertExchange,
  insertPassage,
  insertThread,
} from '../../test/support/chat-fixtures.ts';
import { createUser, signedInAs } from '../../test/support/factories.ts';
import { FakeWhatsApp } from '../../test/support/fake-whatsapp.ts';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import {
  aiProviders,
  apiKeys,
  chats,
  chatVisitors,
  companies,
  connectors,
  customers,
  emailOutbox,
  emailSettings,
  employeeDivisions,
  feedback,
  invoices,
  roles,
  salesDocuments,
  signInProviders,
  tags,
  userIdentities,
  userRoles,
  users,
} from '../db/schema/index.ts';
import { SecretBox } from '../modules/ai-providers/secret-box.ts';

/**
 * Every operation of the OpenAPI document, for every kind of caller, on a resource of their own company and of
 * another: the expected outcome is written down below, not derived from the rules (which would prove nothing).
 *
 * - 'ok': the request reaches the service and is answered (2xx, or a refusal of its own such as 409; never
 *   VALIDATION_FAILED: every body below is valid, so that nothing short of the service decides)
 * - 403: refused (FORBIDDEN)
 * - 404: the caller passes the permission check but reaches nothing (NOT_FOUND)
 * - 'own': 'ok' on the own company's resource, 404 on another company's (no leak)
 * - 'all': 'ok' on any company's resource (the operator, across companies)
 * - 'seen': 403 on the own resource (seen, but not theirs to change), 404 on another company's
 *
 * Without a session every non-public operation is 401. The operator's "own" resources are those of the first
 * company; they belong to no company themselves.
 */
type Cell = 'ok' | 403 | 404 | 'own' | 'all' | 'seen';
type Callers = [administrator: Cell, staff: Cell, dataManager: Cell, employee: Cell];
type Body = unknown | ((r: Resources) => Promise<unknown>);
type Row = { public: true } | { callers: Callers; body?: Body; query?: string; upload?: true };

const CALLERS: UserKind[] = ['Administrator', 'Staff', 'DataManager', 'Employee'];
const ANY: Callers = ['ok', 'ok', 'ok', 'ok'];
const PUBLIC = { public: true } as const;
const COMPANY_DETAILS = {
  website: '',
  street: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '',
  email: '',
  vatId: '',
  taxNumber: '',
  standardTaxRate: 19,
  registerNumber: '',
  registryCourt: '',
  managingDirector: '',
  iban: '',
  bic: '',
};
const HANDWERK_CUSTOMER = {
  name: 'Familie Schneider',
  street: 'Lindenweg 4',
  postalCode: '14467',
  city: 'Potsdam',
  country: 'DE',
  email: '',
  phone: '',
  vatId: '',
  buyerReference: '',
};
/** A valid draft's content, for the own company's customer (another company's would be 404 before the service). */
const handwerkDraft = async (r: Resources) => ({
  customerId: await r.customer(),
  language: 'de',
  title: 'Matrix',
  notes: '',
  lines: [
    { description: 'Arbeit', quantity: 1, unit: 'h', unitPriceCents: 5000, discountPercent: 0, taxRate: 19 },
  ],
});
const SIGN_IN_PROVIDER = {
  kind: 'oidc',
  name: 'Matrix',
  issuer: 'http://127.0.0.1:9',
  clientId: 'matrix',
  allowedDomains: [],
  areas: ['user'],
  enabled: true,
};
/** SMTP and IMAP details whose test is refused at once (a private address, which the policy here refuses). */
const MAILBOX = {
  smtpHost: '127.0.0.1',
  smtpPort: 1,
  imapHost: '127.0.0.1',
  imapPort: 1,
  smtpEmail: 'a@x.example',
  userName: 'a',
  password: 'p',
  security: 'none',
};
const unique = () => `Matrix ${Math.random().toString(36).slice(2, 10)}`;

const MATRIX: Record<string, Row> = {
  // System and sign-in
  'GET /health': PUBLIC,
  'GET /ready': PUBLIC,
  'GET /config': PUBLIC,
  'POST /auth/register': PUBLIC,
  'POST /auth/verify-email': PUBLIC,
  'POST /auth/login': PUBLIC,
  'POST /auth/logout': PUBLIC,
  'POST /auth/refresh': PUBLIC,
  'POST /auth/forgot-password': PUBLIC,
  'POST /auth/reset-password': PUBLIC,
  'POST /auth/set-password': PUBLIC,
  'POST /auth/resend-verification': { callers: ANY },
  'GET /auth/csrf': { callers: ANY },
  'POST /auth/change-password': {
    callers: ANY,
    body: { currentPassword: 'falsch-Pass-1', password: 'neu-Pass-12', confirmPassword: 'neu-Pass-12' },
  },
  'POST /auth/change-email': {
    callers: ANY,
    body: { email: 'neu.matrix@example.com', currentPassword: 'falsch-Pass-1' },
  },
  'POST /auth/confirm-email-change': PUBLIC,
  'GET /auth/me': { callers: ANY },
  'PATCH /auth/me': { callers: ANY, body: {} },
  // Public chat links
  'GET /public/chats/{token}': PUBLIC,
  'POST /public/chats/{token}/visitor': PUBLIC,
  'GET /public/chats/{token}/messages': PUBLIC,
  'POST /public/chats/{token}/messages': PUBLIC,
  'PUT /public/chats/{token}/messages/{messageId}/feedback': PUBLIC,
  // A public chat's website widget, in the frame of the company's website
  'GET /public/widgets/{token}': PUBLIC,
  'POST /public/widgets/{token}/visitor': PUBLIC,
  'GET /public/altcha-challenge': PUBLIC,
  // Dashboards (the operator has no company dashboard)
  'GET /dashboard': { callers: [404, 403, 'ok', 403] },
  'GET /admin/dashboard': { callers: ['ok', 'ok', 403, 403] },
  // The analysis area: by default only the operator holds `analysis` (the spec grants staff nothing more).
  'GET /analysis/dashboard': { callers: ['ok', 403, 403, 403] },
  // Back office
  'GET /admin/emails': { callers: ['ok', 'ok', 403, 403] },
  'GET /admin/emails/{emailId}': { callers: ['all', 'all', 403, 403] },
  'GET /admin/activity-log': { callers: ['ok', 'ok', 403, 403] },
  'GET /admin/activity-log/export': { callers: ['ok', 'ok', 403, 403] },
  'POST /admin/emails/{emailId}/resend': { callers: ['all', 403, 403, 403] },
  // Revealing a mail's single-use link is the Administrator's (`update Email`), never staff's.
  'POST /admin/emails/{emailId}/reveal-link': { callers: ['all', 403, 403, 403], body: { code: '000000' } },
  'GET /admin/email-senders': { callers: ['ok', 'ok', 403, 403] },
  'GET /admin/files': { callers: ['ok', 'ok', 403, 403] },
  // E-mail templates: staff read and preview them, the administrator changes them
  'GET /admin/email-templates': { callers: ['ok', 'ok', 403, 403] },
  'GET /admin/email-templates/{kind}': { callers: ['ok', 'ok', 403, 403] },
  'PUT /admin/email-templates/{kind}/{language}': {
    callers: ['ok', 403, 403, 403],
    body: { subject: 'Matrix', body: 'Matrix' },
  },
  'DELETE /admin/email-templates/{kind}/{language}': { callers: ['ok', 403, 403, 403] },
  'POST /admin/email-templates/{kind}/{language}/preview': {
    callers: ['ok', 'ok', 403, 403],
    body: { subject: 'Matrix', body: 'Matrix' },
  },
  'POST /admin/email-templates/{kind}/{language}/test': { callers: ['ok', 403, 403, 403] },
  // System settings: staff read them, the administrator changes them (to values that leave the other rows alone)
  'GET /admin/system-settings': { callers: ['ok', 'ok', 403, 403] },
  'PUT /admin/system-settings/general': {
    callers: ['ok', 403, 403, 403],
    body: { appTitle: 'Werkwissen', publicUrl: 'http://localhost:4545', defaultLanguage: 'de' },
  },
  'PUT /admin/system-settings/sign-up': {
    callers: ['ok', 403, 403, 403],
    body: { signupEnabled: true, botProtection: false },
  },
  'PUT /admin/system-settings/plans': {
    callers: ['ok', 403, 403, 403],
    body: { divisionsLimit: 10000, employeesLimit: 10000, storageLimitMb: 10000, trialDays: 30 },
  },
  'PUT /admin/system-settings/branding': {
    callers: ['ok', 403, 403, 403],
    body: {
      primaryColor: '#ff7526',
      primaryColorDark: '#e0661f',
      surfaceLight: '#ffffff',
      surfaceDark: '#2f3349',
    },
  },
  'PUT /admin/system-settings/activity-log': { callers: ['ok', 403, 403, 403], body: { retentionDays: 180 } },
  'PUT /admin/system-settings/mail-budget': {
    callers: ['ok', 403, 403, 403],
    body: { perHour: 200, perDay: 1000, trialPerHour: 20, trialPerDay: 50 },
  },
  'PUT /admin/system-settings/logo': { callers: ['ok', 403, 403, 403], upload: true },
  'DELETE /admin/system-settings/logo': { callers: ['ok', 403, 403, 403] },
  'GET /branding/logo': PUBLIC,
  // The company's AI providers (the operator has no company)
  'GET /company/details': { callers: [403, 403, 'ok', 403] },
  'PUT /company/details': {
    callers: [403, 403, 'ok', 403],
    body: { ...COMPANY_DETAILS, name: 'Matrix GmbH' },
  },
  'GET /ai-providers': { callers: [403, 403, 'ok', 403] },
  'PUT /ai-providers/{provider}': { callers: [403, 403, 'ok', 403], body: { model: 'llama3' } },
  'DELETE /ai-providers/{provider}': { callers: [403, 403, 'ok', 403] },
  'POST /ai-providers/{provider}/test': { callers: [403, 403, 'ok', 403], body: { model: 'llama3' } },
  // Personal API keys: everyone's own only
  'GET /api-keys': { callers: ['ok', 'ok', 'ok', 403] },
  'POST /api-keys': { callers: ['ok', 'ok', 'ok', 403], body: { name: 'Matrix' } },
  'DELETE /api-keys/{apiKeyId}': { callers: ['own', 'own', 'own', 403] },
  // Divisions and files: an employee reads the divisions assigned to them and their files
  'GET /divisions': { callers: [403, 403, 'ok', 'ok'] },
  'POST /divisions': { callers: [403, 403, 'ok', 403], body: () => ({ name: unique() }) },
  'PATCH /divisions/{divisionId}': { callers: [403, 403, 'own', 403], body: () => ({ name: unique() }) },
  'DELETE /divisions/{divisionId}': { callers: [403, 403, 'own', 403] },
  'GET /divisions/{divisionId}/files': { callers: [403, 403, 'own', 'own'] },
  'POST /divisions/{divisionId}/files': { callers: [403, 403, 'own', 403], upload: true },
  'GET /files/{fileId}': { callers: [403, 403, 'own', 'own'] },
  'GET /files/{fileId}/content': { callers: [403, 403, 'own', 'own'] },
  'POST /files/{fileId}/retry': { callers: [403, 403, 'own', 403] },
  'POST /files/{fileId}/cancel': { callers: [403, 403, 'own', 403] },
  'DELETE /files/{fileId}': { callers: [403, 403, 'own', 403] },
  // Connectors: the data manager's (a permission of its own); the operator's rules reach them, but not the division
  // they live in. The new source is tried before it is stored: nothing listens there, so the service refuses it.
  'GET /divisions/{divisionId}/connectors': { callers: [404, 403, 'own', 403] },
  'POST /divisions/{divisionId}/connectors': {
    callers: [404, 403, 'own', 403],
    body: { kind: 'webdav', name: 'NAS', url: 'http://127.0.0.1:9/', userName: 'anna', password: 'app-pass' },
  },
  'GET /connectors/{connectorId}': { callers: [404, 403, 'own', 403] },
  'PATCH /connectors/{connectorId}': { callers: [404, 403, 'own', 403], body: { name: 'NAS Büro' } },
  'POST /connectors/{connectorId}/sync': { callers: [404, 403, 'own', 403] },
  'POST /connectors/{connectorId}/pause': { callers: [404, 403, 'own', 403] },
  'POST /connectors/{connectorId}/resume': { callers: [404, 403, 'own', 403] },
  'DELETE /connectors/{connectorId}': { callers: [404, 403, 'own', 403] },
  // Microsoft 365 and Google Drive: the consent starts like a new connector (the operator's app may not be
  // registered: a refusal of the service either way); its end opens the sealed state first, which a made-up one is not.
  'POST /divisions/{divisionId}/connectors/microsoft365/consent': {
    callers: [404, 403, 'own', 403],
    body: { name: 'SharePoint' },
  },
  'POST /connectors/microsoft365/complete': {
    callers: ['ok', 403, 'ok', 403],
    body: { code: 'made-up', state: 'made-up' },
  },
  'POST /divisions/{divisionId}/connectors/googledrive/consent': {
    callers: [404, 403, 'own', 403],
    body: { name: 'Drive' },
  },
  'POST /connectors/googledrive/complete': {
    callers: ['ok', 403, 'ok', 403],
    body: { code: 'made-up', state: 'made-up' },
  },
  'GET /search': { callers: [403, 403, 'ok', 'ok'], query: 'q=Heizung' },
  // The MCP server: any caller reaches it (its tools check their own permissions, mcp.test.ts); GET is always 405
  'POST /mcp': { callers: ANY, body: { jsonrpc: '2.0', id: 1, method: 'ping' } },
  'GET /mcp': { callers: ANY },
  // MCP authorization, for who may hold API keys: the consent step needs this browser's interaction cookie, which no
  // caller here has (404); the apps a user allowed are their own grants only (mcp-oauth.test.ts: another's is 404)
  'GET /oauth/interaction/{uid}': PUBLIC,
  'GET /oauth/interaction/{uid}/consent': { callers: [404, 404, 404, 403] },
  'POST /oauth/interaction/{uid}/consent': { callers: [404, 404, 404, 403], body: { allow: true } },
  'GET /oauth/apps': { callers: ['ok', 'ok', 'ok', 403] },
  'DELETE /oauth/apps/{grantId}': { callers: [404, 404, 404, 403] },
  // Employees: the data manager's; the operator manages users of every company but adds none (no company)
  'GET /employees': { callers: ['ok', 403, 'ok', 403] },
  'POST /employees': {
    callers: [403, 403, 'ok', 403],
    body: () => ({
      email: `${unique().replace(' ', '-')}@firma.example`,
      firstName: 'Kai',
      lastName: 'Berg',
      language: 'de',
      divisionIds: [],
    }),
  },
  'POST /employees/import': {
    callers: [403, 403, 'ok', 403],
    body: { csv: 'email,firstName,lastName\nkeine-adresse,Kai,Berg\n' },
  },
  'GET /employees/{employeeId}': { callers: ['all', 403, 'own', 403] },
  'PATCH /employees/{employeeId}': { callers: ['all', 403, 'own', 403], body: { firstName: 'Max' } },
  'DELETE /employees/{employeeId}': { callers: ['all', 403, 'own', 403] },
  'POST /employees/{employeeId}/resend-invitation': { callers: ['all', 403, 'own', 403] },
  // Chats: an employee's own and the company's public ones; publishing is the data manager's
  'GET /chat-options': { callers: [403, 403, 'ok', 'ok'] },
  'GET /chats': { callers: [403, 403, 'ok', 'ok'] },
  'POST /chats': {
    callers: [403, 403, 'ok', 'ok'],
    body: async (r: Resources) => ({ name: 'Matrix', divisionIds: [await r.division()] }),
  },
  'GET /chats/{chatId}': { callers: [403, 403, 'own', 'own'] },
  'PATCH /chats/{chatId}': { callers: [403, 403, 'own', 'own'], body: { name: 'Umbenannt' } },
  'DELETE /chats/{chatId}': { callers: [403, 403, 'own', 'own'] },
  'POST /chats/{chatId}/share': { callers: [403, 403, 'own', 'seen'] },
  'DELETE /chats/{chatId}/share': { callers: [403, 403, 'own', 'own'] },
  // Its website widget is publishing too: the data manager's alone.
  'GET /chats/{chatId}/widget': { callers: [403, 403, 'own', 403] },
  'PUT /chats/{chatId}/widget': {
    callers: [403, 403, 'own', 403],
    body: { enabled: false, origins: ['https://shop.example'] },
  },
  'GET /chats/{chatId}/messages': { callers: [403, 403, 'own', 'own'] },
  'POST /chats/{chatId}/messages': {
    callers: [403, 403, 'own', 'own'],
    body: { content: 'Wie entlüfte ich?' },
  },
  'POST /chats/{chatId}/messages/{messageId}/regenerate': { callers: [403, 403, 'own', 'own'] },
  'POST /chats/{chatId}/transcriptions': { callers: [403, 403, 'own', 'own'] },
  // The OpenAI-compatible door: what the caller may ask in their company's chats (the operator has none). A chat is
  // named in the body (`chat-<id>`), so another company's is tested in openai-api.test.ts.
  'GET /openai/v1/models': { callers: [403, 403, 'ok', 'ok'] },
  'POST /openai/v1/chat/completions': {
    callers: [403, 403, 'ok', 'ok'],
    body: { model: 'werkwissen', messages: [{ role: 'user', content: 'Wie entlüfte ich?' }] },
  },
  // Feedback on one's own answers, and the reports (across companies for the operator)
  'PUT /messages/{messageId}/feedback': { callers: [404, 403, 'own', 'own'], body: { liked: true } },
  'GET /feedback': { callers: ['ok', 403, 'ok', 403] },
  'GET /feedback/{feedbackId}': { callers: ['all', 403, 'own', 403] },
  'GET /feedback-export': { callers: ['ok', 403, 'ok', 403] },
  'GET /feedback-series': { callers: ['ok', 403, 'ok', 403] },
  'GET /knowledge-gaps': { callers: ['ok', 403, 'ok', 403] },
  // Tags: the company's; employees read them
  'GET /tags': { callers: [403, 403, 'ok', 'ok'] },
  'POST /tags': { callers: [403, 403, 'ok', 403], body: () => ({ name: unique(), color: 'info' }) },
  'PATCH /tags/{tagId}': { callers: [403, 403, 'own', 403], body: () => ({ name: unique() }) },
  'DELETE /tags/{tagId}': { callers: [403, 403, 'own', 403] },
  // People in the back office: staff read them, the administrator changes them (always fresh data managers and
  // companies, so that no row switches off a caller)
  'GET /admin/users/data-managers': { callers: ['ok', 'ok', 403, 403] },
  'POST /admin/users/data-managers': {
    callers: ['ok', 403, 403, 403],
    body: () => ({
      email: `${unique().replace(' ', '-')}@firma.example`,
      firstName: 'Dana',
      lastName: 'Berg',
      language: 'de',
      companyName: unique(),
    }),
  },
  'POST /admin/users/data-managers/import': {
    callers: ['ok', 403, 403, 403],
    body: { csv: 'email,firstName,lastName,companyName\nkeine-adresse,Kai,Berg,Firma\n' },
  },
  'GET /admin/users/data-managers/{dataManagerId}': { callers: ['all', 'all', 403, 403] },
  'PATCH /admin/users/data-managers/{dataManagerId}': {
    callers: ['all', 403, 403, 403],
    body: { firstName: 'Max' },
  },
  'POST /admin/users/data-managers/{dataManagerId}/deactivate': { callers: ['all', 403, 403, 403] },
  'POST /admin/users/data-managers/{dataManagerId}/reactivate': { callers: ['all', 403, 403, 403] },
  'DELETE /admin/users/data-managers/{dataManagerId}': {
    callers: ['all', 403, 403, 403],
    query: 'confirmation=nicht-der-name',
  },
  'GET /admin/users/public-users': { callers: ['ok', 'ok', 403, 403] },
  'GET /admin/users/public-users/{publicUserId}': { callers: ['all', 'all', 403, 403] },
  'GET /admin/companies': { callers: ['ok', 'ok', 403, 403] },
  'POST /admin/companies/{companyId}/suspend': {
    callers: ['all', 403, 403, 403],
    body: { reason: 'Matrix' },
  },
  'POST /admin/companies/{companyId}/resume': { callers: ['all', 403, 403, 403] },
  // Viewing as a user: only the administrator (asked for themselves here, which is refused after the checks)
  'POST /admin/impersonation': {
    callers: ['ok', 403, 403, 403],
    body: async (r: Resources) => ({ userId: await r.self() }),
  },
  'POST /auth/impersonation/end': PUBLIC,
  // Roles: the platform's, edited by the administrator (a fresh custom role: reset answers ROLE_NO_DEFAULTS)
  'GET /admin/roles': { callers: ['ok', 403, 403, 403] },
  'POST /admin/roles': { callers: ['ok', 403, 403, 403], body: () => ({ name: unique(), rules: [] }) },
  'GET /admin/roles/{roleId}': { callers: ['all', 403, 403, 403] },
  'GET /admin/roles/{roleId}/holders': { callers: ['all', 403, 403, 403] },
  'PATCH /admin/roles/{roleId}': { callers: ['all', 403, 403, 403], body: { description: 'Matrix' } },
  'POST /admin/roles/{roleId}/reset': { callers: ['all', 403, 403, 403] },
  'DELETE /admin/roles/{roleId}': { callers: ['all', 403, 403, 403] },
  // Staff: staff read them, the administrator changes them; a company user is refused whatever their User rules say
  'GET /admin/staff': { callers: ['ok', 'ok', 403, 403] },
  'POST /admin/staff': {
    callers: ['ok', 403, 403, 403],
    body: async () => ({
      email: `${unique().replace(' ', '-')}@betreiber.example`,
      firstName: 'Sam',
      lastName: 'Team',
      language: 'de',
      roleIds: [await staffRoleId()],
    }),
  },
  'GET /admin/staff/{staffId}': { callers: ['all', 'all', 403, 403] },
  'PATCH /admin/staff/{staffId}': { callers: ['all', 403, 403, 403], body: { firstName: 'Max' } },
  'POST /admin/staff/{staffId}/deactivate': { callers: ['all', 403, 403, 403] },
  'POST /admin/staff/{staffId}/reactivate': { callers: ['all', 403, 403, 403] },
  'POST /admin/staff/{staffId}/resend-invitation': { callers: ['all', 403, 403, 403] },
  'DELETE /admin/staff/{staffId}': { callers: ['all', 403, 403, 403] },
  // Billing: the company's plan and invoices are its data manager's; the operator reads every company's, assigns
  // plans and edits the catalogue. Payments are off here, so checkout, portal and cancel answer PAYMENTS_DISABLED.
  'GET /billing/status': { callers: ANY },
  'GET /billing': { callers: [403, 403, 'ok', 403] },
  'POST /billing/checkout': { callers: [403, 403, 'ok', 403], body: { plan: 'monthly' } },
  'POST /billing/portal': { callers: [403, 403, 'ok', 403] },
  'POST /billing/cancel': { callers: [403, 403, 'ok', 403] },
  'GET /billing/invoices': { callers: ['ok', 'ok', 'ok', 403] },
  'GET /billing/invoices/{invoiceId}': { callers: ['all', 'all', 'own', 403] },
  'GET /billing/invoices/{invoiceId}/pdf': { callers: ['all', 'all', 'own', 403] },
  'POST /webhooks/stripe': PUBLIC,
  // The back office's payments and plan catalogue are the operator's: a company user is refused, even for their own
  // company's plan (which the billing tab shows).
  'GET /admin/payments': { callers: ['ok', 'ok', 403, 403] },
  'GET /admin/payments/{companyId}': { callers: ['all', 'all', 403, 403] },
  'PUT /admin/payments/{companyId}/plan': {
    callers: ['all', 403, 403, 403],
    body: { plan: 'monthly', endsAt: '2099-01-01T00:00:00.000Z' },
  },
  'GET /admin/plans': { callers: ['ok', 'ok', 403, 403] },
  'PUT /admin/plans/{plan}': {
    callers: ['ok', 403, 403, 403],
    // The seeded trial's own values, so that no other row meets another limit.
    body: {
      priceCents: null,
      limits: {
        storageBytes: null,
        divisions: null,
        employees: null,
        smtpSettings: 1,
        emailSettings: 1,
        questionsPerMonth: null,
      },
    },
  },
  // Two-factor: the pending sign-in is public (its cookie decides); everyone's own settings; the reset needs User
  // rules that may update the user (a data manager's reach their own employees)
  'POST /auth/two-factor/enrolment': PUBLIC,
  'POST /auth/two-factor/verify': PUBLIC,
  'GET /account/two-factor': { callers: ANY },
  'POST /account/two-factor/enrolment': { callers: ANY },
  'POST /account/two-factor/confirm': { callers: ANY, body: { code: '123456' } },
  'POST /account/two-factor/disable': { callers: ANY, body: { code: '123456' } },
  // One's own phone number, confirmed from WhatsApp: everyone's own (an operator's company has no WhatsApp).
  'GET /account/phone-verification': { callers: ANY },
  'POST /account/phone-verification': { callers: ANY },
  'DELETE /admin/users/{userId}/two-factor': { callers: ['all', 403, 'own', 403] },
  // The public feedback page
  'POST /public/feedback': PUBLIC,
  // The company's logo, colour and default document: its data manager's (the operator has no company); the logo's image is
  // public for the company's mails. The guided tour is the one of whoever sets the company up.
  'GET /company/branding': { callers: [403, 403, 'ok', 403] },
  'PUT /company/logo': { callers: [403, 403, 'ok', 403], upload: true },
  'DELETE /company/logo': { callers: [403, 403, 'ok', 403] },
  'PUT /company/brand-color': { callers: [403, 403, 'ok', 403], body: { brandColor: '#1f5fa8' } },
  'GET /branding/companies/{companyId}/logo': PUBLIC,
  'PUT /company/default-document': { callers: [403, 403, 'ok', 403], upload: true },
  'DELETE /company/default-document': { callers: [403, 403, 'ok', 403] },
  'GET /tour': { callers: [403, 403, 'ok', 403] },
  'PUT /tour': { callers: [403, 403, 'ok', 403], body: { state: 'active', currentStep: 'logo' } },
  // Offers and invoices (/handwerk): the company's data manager's alone; the operator does not see them.
  'GET /handwerk/customers': { callers: [403, 403, 'ok', 403] },
  'POST /handwerk/customers': { callers: [403, 403, 'ok', 403], body: HANDWERK_CUSTOMER },
  'GET /handwerk/customers/{customerId}': { callers: [403, 403, 'own', 403] },
  'PUT /handwerk/customers/{customerId}': { callers: [403, 403, 'own', 403], body: HANDWERK_CUSTOMER },
  'DELETE /handwerk/customers/{customerId}': { callers: [403, 403, 'own', 403] },
  'GET /handwerk/documents': { callers: [403, 403, 'ok', 403] },
  'POST /handwerk/documents': {
    callers: [403, 403, 'ok', 403],
    body: async (r: Resources) => ({ type: 'offer', ...(await handwerkDraft(r)) }),
  },
  // The own company has no price list here: NO_PRICED_ITEMS_FOUND, the service's own answer.
  'POST /handwerk/documents/drafted-offers': {
    callers: [403, 403, 'ok', 403],
    body: async (r: Resources) => ({
      customerId: await r.customer(),
      language: 'de',
      description: 'Heizungswartung',
    }),
  },
  'GET /handwerk/documents/{documentId}': { callers: [403, 403, 'own', 403] },
  'PUT /handwerk/documents/{documentId}': { callers: [403, 403, 'own', 403], body: handwerkDraft },
  'DELETE /handwerk/documents/{documentId}': { callers: [403, 403, 'own', 403] },
  'GET /handwerk/documents/{documentId}/pdf': { callers: [403, 403, 'own', 403] },
  'POST /handwerk/documents/{documentId}/finalise': { callers: [403, 403, 'own', 403] },
  'POST /handwerk/documents/{documentId}/status': {
    callers: [403, 403, 'own', 403],
    body: { status: 'accepted' },
  },
  'POST /handwerk/documents/{documentId}/convert': {
    callers: [403, 403, 'own', 403],
    body: { type: 'order' },
  },
  // Sign-in providers: the flow is public (its cookie decides); everyone links and lists their own identities (another
  // user's identity is 404 to all); staff read the providers, the administrator changes them (the fixture's issuer
  // cannot be read, so saving reaches the service's discovery check)
  'GET /auth/oidc/providers': PUBLIC,
  'GET /auth/oidc/{providerId}/start': PUBLIC,
  'GET /auth/oidc/{providerId}/google-button': PUBLIC,
  'POST /auth/oidc/credential': PUBLIC,
  'GET /auth/oidc/callback': PUBLIC,
  'POST /account/identities/{providerId}/link': { callers: ANY, body: { to: '/account-settings/security' } },
  'GET /account/identities': { callers: ANY },
  'DELETE /account/identities/{identityId}': { callers: [404, 404, 404, 404] },
  'GET /admin/sign-in-providers': { callers: ['ok', 'ok', 403, 403] },
  'POST /admin/sign-in-providers': { callers: ['ok', 403, 403, 403], body: SIGN_IN_PROVIDER },
  'PUT /admin/sign-in-providers/{signInProviderId}': {
    callers: ['ok', 403, 403, 403],
    body: SIGN_IN_PROVIDER,
  },
  'DELETE /admin/sign-in-providers/{signInProviderId}': { callers: ['ok', 403, 403, 403] },
  'GET /admin/microsoft-app': { callers: ['ok', 'ok', 403, 403] },
  'PUT /admin/microsoft-app': {
    callers: ['ok', 403, 403, 403],
    body: { clientId: 'matrix', clientSecret: 'matrix-secret', loginUrl: 'http://127.0.0.1:9' },
  },
  'GET /admin/google-app': { callers: ['ok', 'ok', 403, 403] },
  'PUT /admin/google-app': {
    callers: ['ok', 403, 403, 403],
    body: { clientId: 'matrix', clientSecret: 'matrix-secret', tokenUrl: 'http://127.0.0.1:9/token' },
  },
  // E-mail settings: the company's data manager's; the operator reaches them by `manage all` but has no company to
  // add one to, nor a division to answer from; staff have no rule for them.
  'GET /email-settings': { callers: ['ok', 403, 'ok', 403] },
  'POST /email-settings': {
    callers: [403, 403, 'ok', 403],
    body: async (r: Resources) => ({
      ...MAILBOX,
      fromEmail: 'a@x.example',
      allowedEmails: ['b@x.example'],
      divisionId: await r.division(),
      isPrivate: false,
    }),
  },
  'PUT /email-settings/{settingId}': {
    callers: [404, 403, 'own', 403],
    body: async (r: Resources) => ({
      ...MAILBOX,
      fromEmail: 'a@x.example',
      allowedEmails: ['b@x.example'],
      divisionId: await r.division(),
      isPrivate: true,
    }),
  },
  'DELETE /email-settings/{settingId}': { callers: ['all', 403, 'own', 403] },
  'GET /email-settings/{settingId}/mails': { callers: ['all', 403, 'own', 403] },
  'POST /email-settings/test': { callers: [403, 403, 'ok', 403], body: MAILBOX },
  // E-invoices: the draft in the table answers DOCUMENT_NOT_FINALISED (409), the service's own refusal.
  'GET /handwerk/documents/{documentId}/xrechnung.xml': { callers: [403, 403, 'own', 403] },
  'GET /handwerk/documents/{documentId}/factur-x.pdf': { callers: [403, 403, 'own', 403] },
  // The own document is a draft here: DOCUMENT_NOT_FINALISED, the service's own answer.
  'GET /handwerk/documents/{documentId}/mail-draft': { callers: [403, 403, 'own', 403] },
  'GET /handwerk/documents/{documentId}/mails': { callers: [403, 403, 'own', 403] },
  'POST /handwerk/documents/{documentId}/mails': {
    callers: [403, 403, 'own', 403],
    body: { to: 'schneider@kunde.example', subject: 'Angebot', message: 'Anbei.', attach: 'pdf' },
  },
  // WhatsApp: the company's connection is the Company's settings; the webhook is Meta's (its signature decides). In
  // this order the test runs after the disconnect, so it answers WHATSAPP_NOT_CONNECTED without calling Meta.
  'GET /whatsapp/connection': { callers: [403, 403, 'ok', 403] },
  'PUT /whatsapp/connection': {
    callers: [403, 403, 'ok', 403],
    body: async () => ({
      phoneNumberId: whatsapp.addNumber(),
      businessAccountId: '102290129340398',
      accessToken: whatsapp.accessToken,
      appSecret: 'matrix-app-secret',
      verifyToken: 'matrix-verify-token-0000',
    }),
  },
  'DELETE /whatsapp/connection': { callers: [403, 403, 'ok', 403] },
  'POST /whatsapp/connection/test': {
    callers: [403, 403, 'ok', 403],
    body: { phoneNumberId: '102290129340398' },
  },
  'GET /webhooks/whatsapp/{companyKey}': PUBLIC,
  'POST /webhooks/whatsapp/{companyKey}': PUBLIC,
};

/** The seeded Staff role, which invitations in the table give. */
const staffRoleId = async () => (await db().select().from(roles).where(eq(roles.kind, 'Staff')))[0]!.id;

interface Caller {
  kind: UserKind;
  client: ApiClient;
  userId: string;
  companyId: string | null;
}

let t: TestServer;
const callers = new Map<UserKind, Caller>();
let companyA: string;
let companyB: string;
let managerA: string;
let employeeA: string;
let managerB: string;

const db = () => t.server.ctx.db;

// Meta's Graph API, which checks a WhatsApp number before it is saved.
const whatsapp = new FakeWhatsApp();

beforeAll(async () => {
  await whatsapp.start();
  // API only: what a request queues is never processed, so no request sets off heavy work.
  t = await startTestServer({ smtp: false, role: 'api', env: whatsapp.env() });
  for (const kind of ['Administrator', 'Staff'] as const) {
    const { client, user } = await signedInAs(t, kind);
    callers.set(kind, { kind, client, userId: user.id, companyId: null });
  }
  const dm = await signedInAs(t, 'DataManager');
  companyA = dm.companyId!;
  managerA = dm.user.id;
  callers.set('DataManager', {
    kind: 'DataManager',
    client: dm.client,
    userId: dm.user.id,
    companyId: companyA,
  });
  const employee = await signedInAs(t, 'Employee', { companyId: companyA });
  employeeA = employee.user.id;
  callers.set('Employee', {
    kind: 'Employee',
    client: employee.client,
    userId: employeeA,
    companyId: companyA,
  });
  const other = await createUser(t, 'DataManager');
  companyB = other.companyId!;
  managerB = other.user.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await whatsapp.stop();
});

/** Fresh resources for one request: of the caller's company ('own', the first company for the operator) or not. */
function resourcesFor(caller: Caller, place: 'own' | 'other') {
  const own = place === 'own';
  const companyId = own ? companyA : companyB;
  // What is "own" belongs to the caller when they are of the company, else to its data manager.
  const owner = !own ? managerB : caller.companyId === companyA ? caller.userId : managerA;
  const made = new Map<string, Promise<string>>();
  const once = (name: string, make: () => Promise<string>) => {
    if (!made.has(name)) made.set(name, make());
    return made.get(name)!;
  };
  const r = {
    division: () =>
      once('division', async () => {
        const division = await insertDivision(t, companyId, unique());
        if (own) await db().insert(employeeDivisions).values({ userId: employeeA, divisionId: division.id });
        return division.id;
      }),
    file: () =>
      once('file', async () => {
        const { file } = await insertPassage(t, {
          companyId,
          divisionId: await r.division(),
          text: 'Heizung',
        });
        const staged = await t.server.ctx.storage.stage(
          Readable.from(Buffer.from('x'.repeat(file.sizeBytes))),
        );
        await t.server.ctx.storage.commit(staged.key, file.storageKey);
        return file.id;
      }),
    chat: () =>
      once('chat', async () => {
        const chat = await insertChat(t, { companyId, ownerId: owner, divisionIds: [await r.division()] });
        // Another company's chat is public: visible to all of that company, and still out of reach here.
        if (!own) await db().update(chats).set({ visibility: 'public' }).where(eq(chats.id, chat.id));
        return chat.id;
      }),
    answer: () =>
      once('answer', async () => {
        const thread = await insertThread(t, { companyId, chatId: await r.chat(), userId: owner });
        return (await insertExchange(t, thread, { question: 'Wie entlüfte ich?' })).answerId;
      }),
    feedback: () =>
      once('feedback', async () => {
        const [row] = await db()
          .insert(feedback)
          .values({
            companyId,
            chatName: 'Matrix',
            origin: 'dataManager',
            givenBy: 'M',
            question: 'F?',
            answer: 'A.',
          })
          .returning();
        return row!.id;
      }),
    tag: () =>
      once('tag', async () => {
        const [row] = await db().insert(tags).values({ companyId, name: unique() }).returning();
        return row!.id;
      }),
    employee: () =>
      once('employee', async () => {
        const [row] = await db()
          .insert(users)
          .values({
            kind: 'Employee',
            companyId,
            email: `${unique().replace(' ', '-')}@x.example`,
            firstName: 'E',
            lastName: 'M',
            language: 'de',
          })
          .returning();
        return row!.id;
      }),
    apiKey: () =>
      once('apiKey', async () => {
        const [row] = await db()
          .insert(apiKeys)
          .values({
            userId: own ? caller.userId : managerB,
            companyId: own ? caller.companyId : companyB,
            name: 'Matrix',
            prefix: 'ww_matrix',
            keyHash: unique(),
          })
          .returning();
        return row!.id;
      }),
    email: () =>
      once('email', async () => {
        const [row] = await db()
          .insert(emailOutbox)
          .values({
            companyId,
            to: 'a@x.example',
            template: 'welcome',
            language: 'de',
            subject: 'S',
            text: 'T',
            html: 'H',
          })
          .returning();
        return row!.id;
      }),
    self: () => once('self', async () => caller.userId),
    dataManager: () => once('dataManager', async () => (await createUser(t, 'DataManager')).user.id),
    company: () =>
      once('company', async () => {
        const [row] = await db().insert(companies).values({ name: unique() }).returning();
        return row!.id;
      }),
    publicUser: () =>
      once('publicUser', async () => {
        const [row] = await db()
          .insert(chatVisitors)
          .values({
            companyId,
            chatId: await r.chat(),
            tokenHash: unique(),
            name: 'Vera Besuch',
            email: `${unique().replace(' ', '-')}@besuch.example`,
          })
          .returning();
        return row!.id;
      }),
    /** A custom role (the platform's: the same in both places). */
    role: () =>
      once('role', async () => {
        const [row] = await db().insert(roles).values({ name: unique(), rules: [] }).returning();
        return row!.id;
      }),
    /** A staff member invited with the Staff role (the operator's: the same in both places). */
    staff: () =>
      once('staff', async () => {
        const [row] = await db()
          .insert(users)
          .values({
            kind: 'Staff',
            email: `${unique().replace(' ', '-')}@betreiber.example`,
            firstName: 'S',
            lastName: 'T',
            language: 'de',
          })
          .returning();
        await db()
          .insert(userRoles)
          .values({ userId: row!.id, roleId: await staffRoleId() });
        return row!.id;
      }),
    invoice: () =>
      once('invoice', async () => {
        const [row] = await db()
          .insert(invoices)
          .values({
            companyId,
            stripeInvoiceId: `in_${unique().replace(' ', '_')}`,
            currency: 'eur',
            totalCents: 4900,
            paidCents: 4900,
            status: 'paid',
            issuedAt: new Date(),
          })
          .returning();
        return row!.id;
      }),
    customer: () =>
      once('customer', async () => {
        const [row] = await db()
          .insert(customers)
          .values({ companyId, name: unique(), country: 'DE' })
          .returning();
        return row!.id;
      }),
    /** A draft offer (each request its own: finalising, converting and deleting it all answer). */
    salesDocument: () =>
      once('salesDocument', async () => {
        const [row] = await db()
          .insert(salesDocuments)
          .values({
            companyId,
            type: 'offer',
            customerId: await r.customer(),
            language: 'de',
            issueDate: '2026-01-02',
            lines: [
              {
                description: 'Arbeit',
                quantity: 1,
                unit: 'h',
                unitPriceCents: 5000,
                discountPercent: 0,
                taxRate: 19,
                source: null,
              },
            ],
            netCents: 5000,
            taxCents: 950,
            grossCents: 5950,
          })
          .returning();
        return row!.id;
      }),
    emailSetting: () =>
      once('emailSetting', async () => {
        const [row] = await db()
          .insert(emailSettings)
          .values({
            ...MAILBOX,
            companyId,
            divisionId: await r.division(),
            ownerId: owner,
            fromEmail: 'a@x.example',
            allowedEmails: ['b@x.example'],
            passwordSealed: 'v1.x.y.z',
            security: 'none',
          })
          .returning();
        return row!.id;
      }),
    /** A WebDAV connector of the division (nothing listens at its address: a sync of it fails). */
    connector: () =>
      once('connector', async () => {
        const [row] = await db()
          .insert(connectors)
          .values({
            companyId,
            divisionId: await r.division(),
            ownerId: owner,
            kind: 'webdav',
            name: 'NAS',
            url: 'http://127.0.0.1:9/',
            userName: 'anna',
            secretSealed: new SecretBox(t.server.ctx.config.secrets.encryptionKey).seal('app-pass'),
          })
          .returning();
        return row!.id;
      }),
    /** A provider the own company has set up (not a resource of its own: the same name in both places). */
    provider: () =>
      once('provider', async () => {
        await db()
          .insert(aiProviders)
          .values({ companyId: companyA, provider: 'ollama', model: 'llama3' })
          .onConflictDoNothing();
        return 'ollama';
      }),
  };
  return r;
}
type Resources = ReturnType<typeof resourcesFor>;

const ID_PARAMS: Record<string, (r: Resources) => Promise<string>> = {
  divisionId: (r) => r.division(),
  fileId: (r) => r.file(),
  chatId: (r) => r.chat(),
  messageId: (r) => r.answer(),
  feedbackId: (r) => r.feedback(),
  tagId: (r) => r.tag(),
  employeeId: (r) => r.employee(),
  apiKeyId: (r) => r.apiKey(),
  emailId: (r) => r.email(),
  dataManagerId: (r) => r.dataManager(),
  publicUserId: (r) => r.publicUser(),
  companyId: (r) => r.company(),
  roleId: (r) => r.role(),
  staffId: (r) => r.staff(),
  invoiceId: (r) => r.invoice(),
  customerId: (r) => r.customer(),
  documentId: (r) => r.salesDocument(),
  userId: (r) => r.employee(),
  settingId: (r) => r.emailSetting(),
  connectorId: (r) => r.connector(),
};
const OTHER_PARAMS: Record<string, (r: Resources) => Promise<string>> = {
  provider: (r) => r.provider(),
  token: async () => 'a'.repeat(32),
  kind: async () => 'welcome',
  language: async () => 'de',
  plan: async () => 'trial',
  providerId: async () => (await signInProvider()).id,
  signInProviderId: async () => (await signInProvider()).id,
  identityId: async () => {
    const { user } = await createUser(t, 'DataManager');
    const [row] = await t.server.ctx.db
      .insert(userIdentities)
      .values({ userId: user.id, issuer: 'http://127.0.0.1:9', subject: unique() })
      .returning();
    return row!.id;
  },
  companyKey: async () => 'b'.repeat(32),
  uid: async () => 'c'.repeat(43),
  grantId: async () => 'd'.repeat(43),
};

/** A stored, enabled provider whose discovery document cannot be read (nothing listens on port 9). */
async function signInProvider() {
  const { kind: _kind, ...values } = SIGN_IN_PROVIDER;
  const [row] = await t.server.ctx.db
    .insert(signInProviders)
    .values({ ...values, kind: 'oidc' })
    .returning();
  return row!;
}

const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const hasIdParam = (path: string) => paramsOf(path).some((p) => p in ID_PARAMS);

async function send(client: ApiClient, key: string, row: Row, r: Resources): Promise<ApiResponse> {
  const [method, template] = key.split(' ') as [string, string];
  let path = template;
  for (const param of paramsOf(template)) {
    const make = ID_PARAMS[param] ?? OTHER_PARAMS[param];
    if (!make) throw new Error(`no fixture for {${param}} in ${key}`);
    path = path.replace(`{${param}}`, await make(r));
  }
  if ('public' in row) return client.request(method, path, method === 'GET' ? undefined : {});
  if (row.query) path += `?${row.query}`;
  if (row.upload && method === 'POST') return client.upload(path, [{ name: 'leer.txt', content: '' }]);
  if (row.upload) {
    // A logo or the default document: one part `file`, replaced with PUT.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(0)], { type: 'text/plain' }), 'leer.txt');
    return client.request(method, path, undefined, { form });
  }
  const body = typeof row.body === 'function' ? await (row.body as (r: Resources) => unknown)(r) : row.body;
  return client.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}));
}

type Outcome = 'ok' | 403 | 404;

function expected(cell: Cell, place: 'own' | 'other'): Outcome {
  if (cell === 'own') return place === 'own' ? 'ok' : 404;
  if (cell === 'seen') return place === 'own' ? 403 : 404;
  if (cell === 'all') return 'ok';
  return cell;
}

function outcomeOf(res: ApiResponse): string {
  const code = res.body?.error?.code;
  if (res.status === 403 && code === 'FORBIDDEN') return '403';
  if (res.status === 404 && code === 'NOT_FOUND') return '404';
  if (res.status < 500 && ![401, 403, 404].includes(res.status) && code !== 'VALIDATION_FAILED') return 'ok';
  return `${res.status} ${code ?? ''}`;
}

describe('the access matrix of every operation', () => {
  it('lists every operation of the OpenAPI document, and nothing else', async () => {
    const doc = (await t.client().get('/openapi.json')).body as { paths: Record<string, object> };
    // The API's operations (with a built web app the document also names its page fallback, `GET /{*}`).
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '')}`),
      );
    expect(Object.keys(MATRIX).sort()).toEqual(operations.sort());
  });

  it('answers 401 without a session, and lets everyone through the public ones', async () => {
    const failures: string[] = [];
    for (const [key, row] of Object.entries(MATRIX)) {
      const res = await send(t.client(), key, row, resourcesFor(callers.get('DataManager')!, 'own'));
      const code = res.body?.error?.code;
      if ('public' in row) {
        if (res.status >= 500 || code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') {
          failures.push(`${key}: ${res.status} ${code}`);
        }
      } else if (res.status !== 401 || code !== 'UNAUTHENTICATED') {
        failures.push(`${key}: ${res.status} ${code}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(CALLERS)(
    'answers %s as the table says, on its own and on another company’s resources',
    async (kind) => {
      const caller = callers.get(kind)!;
      const column = CALLERS.indexOf(kind);
      const failures: string[] = [];
      let checked = 0;
      for (const [key, row] of Object.entries(MATRIX)) {
        if ('public' in row) continue;
        const cell = row.callers[column]!;
        const places = hasIdParam(key.split(' ')[1]!) ? (['own', 'other'] as const) : (['own'] as const);
        for (const place of places) {
          const res = await send(caller.client, key, row, resourcesFor(caller, place));
          const want = String(expected(cell, place));
          const got = outcomeOf(res);
          checked++;
          if (got !== want) failures.push(`${key} (${place}): expected ${want}, got ${got}`);
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(80);
    },
  );
});
