import { z } from 'zod';
import { foreignSecretField, requiredText, singleLineText } from './fields.ts';
import { defineContract, uuidParam } from './route-contract.ts';

/**
 * The sources a division can be kept in sync with: WebDAV (Nextcloud, ownCloud, Synology, QNAP, any WebDAV server)
 * and Microsoft 365 (a SharePoint document library or OneDrive folder through Microsoft Graph, connected by OAuth
 * consent: `microsoft-connector.contract.ts`) and Google Drive (a My Drive or shared drive folder through the Drive API's
 * changes, connected by OAuth consent: `google-connector.contract.ts`), behind one `SourceClient` on the server.
 */
export const CONNECTOR_KINDS = ['webdav', 'microsoft365', 'googledrive'] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];

/** `paused`: no scheduled syncs (by hand, or after CONNECTOR_PAUSE_AFTER failed syncs in a row). */
export const CONNECTOR_STATUSES = ['active', 'paused'] as const;
export type ConnectorStatus = (typeof CONNECTOR_STATUSES)[number];

export const CONNECTOR_SYNC_STATES = ['idle', 'queued', 'running'] as const;
export type ConnectorSyncState = (typeof CONNECTOR_SYNC_STATES)[number];

/** Whole syncs that fail in a row before a connector pauses (and its data manager is mailed). */
export const CONNECTOR_PAUSE_AFTER = 3;

/**
 * Why a sync failed as a whole (`connectors.failure.<code>`): the server could not be reached, refused the user or
 * password, the folder is not there, the outbound policy refused the address, the plan's storage is full, the
 * server answered something else than WebDAV, the worker stopped during the sync (it is then run again), or the
 * account's consent was withdrawn (Microsoft 365, Google Drive: the refresh token is refused; the connector pauses at
 * once). The texts name the connector's kind (`connectors.sourceName.<kind>` as `{{source}}`).
 */
export const CONNECTOR_FAILURES = [
  'unreachable',
  'auth',
  'not-found',
  'blocked',
  'quota',
  'protocol',
  'interrupted',
  'revoked',
] as const;
export type ConnectorFailure = (typeof CONNECTOR_FAILURES)[number];

/** Counts of one sync, and the files it could not take (path and error code, `errors.<CODE>`). */
export const connectorSyncResultSchema = z.object({
  added: z.number().int(),
  changed: z.number().int(),
  renamed: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
  failures: z.array(z.object({ path: z.string(), code: z.string(), version: z.string().optional() })),
});
export type ConnectorSyncResult = z.infer<typeof connectorSyncResultSchema>;

/** A file extension of the filter: letters and digits, without the dot. */
const extension = singleLineText()
  .transform((v) => v.trim().toLowerCase().replace(/^\./, ''))
  .pipe(z.string().regex(/^[a-z0-9]{1,10}$/, { message: 'connectors.validation.fileType' }));

/** A folder below the address: no `..`, no control characters; slashes at either end are dropped. */
const folderField = singleLineText(500)
  .refine((v) => !v.split('/').some((part) => part === '..' || part === '.'), {
    message: 'connectors.validation.folder',
  })
  .transform((v) => v.replace(/^\/+|\/+$/g, ''))
  .default('');

const webdavUrl = singleLineText(500)
  .pipe(z.url({ protocol: /^https?$/, message: 'validation.url' }))
  .refine((v) => !new URL(v).username && !new URL(v).password, {
    message: 'connectors.validation.urlCredentials',
  });

/** A folder below the address: no `..`, no control characters; slashes at either end are dropped. */
export const connectorFolderField = () => folderField;

const fileTypes = z.array(extension).max(30);
const interval = z
  .number()
  .int()
  .min(15)
  .max(7 * 24 * 60);

/** A connector's file types (extensions without the dot), at most 30. */
export const connectorFileTypesField = () => fileTypes.default([]);

/** Minutes between scheduled syncs: a quarter of an hour to a week, hourly by default. */
export const connectorIntervalField = () => interval.default(60);

/** A base address of an OAuth app's endpoint (no trailing slash): the vendor's by default, a test double's in tests. */
export const endpointUrlField = () =>
  singleLineText(500)
    .pipe(z.url({ protocol: /^https?$/, message: 'validation.url' }))
    .transform((v) => v.replace(/\/+$/, ''));

/** Where the browser goes to consent; the vendor sends it back to the kind's callback page with `code` and `state`. */
export const consentStartSchema = z.object({ authorizationUrl: z.string() });

/** What the vendor sent the browser back with, handed to the server by the callback page. */
export const consentCompleteBodySchema = z.strictObject({
  code: foreignSecretField(4000).min(1, { message: 'validation.required' }),
  state: foreignSecretField(4000).min(1, { message: 'validation.required' }),
});

/** A WebDAV source; Microsoft 365 and Google Drive are connected through their consent (`*ConsentBodySchema`). */
export const connectorCreateSchema = z.strictObject({
  kind: z.enum(['webdav'], { message: 'validation.invalid' }),
  name: requiredText(120),
  url: webdavUrl,
  userName: requiredText(254),
  password: foreignSecretField().min(1, { message: 'validation.required' }),
  folder: folderField,
  fileTypes: connectorFileTypesField(),
  intervalMinutes: connectorIntervalField(),
});
export type ConnectorCreate = z.input<typeof connectorCreateSchema>;

/**
 * What a data manager may change of a connector without connecting it again (which would take its files in anew):
 * its name, schedule and file types, and a WebDAV server's login (a new app password; tried before it is stored). The
 * source's address and folder stay: another folder is another connector.
 */
export const connectorUpdateSchema = z.strictObject({
  name: requiredText(120).optional(),
  fileTypes: fileTypes.optional(),
  intervalMinutes: interval.optional(),
  userName: requiredText(254).optional(),
  password: foreignSecretField().min(1, { message: 'validation.required' }).optional(),
});
export type ConnectorUpdate = z.input<typeof connectorUpdateSchema>;

export const connectorSchema = z
  .object({
    id: z.uuid(),
    divisionId: z.uuid(),
    kind: z.enum(CONNECTOR_KINDS),
    name: z.string(),
    url: z.string(),
    userName: z.string(),
    folder: z.string(),
    fileTypes: z.array(z.string()),
    intervalMinutes: z.number().int(),
    status: z.enum(CONNECTOR_STATUSES),
    syncState: z.enum(CONNECTOR_SYNC_STATES),
    lastSyncAt: z.iso.datetime().nullable(),
    lastResult: connectorSyncResultSchema.nullable(),
    /** Why the last sync failed, in the reader's language. */
    lastError: z.string().nullable(),
    lastErrorCode: z.enum(CONNECTOR_FAILURES).nullable(),
    failureCount: z.number().int(),
    /** Files of the division that come from it. */
    fileCount: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Connector' });
export type Connector = z.infer<typeof connectorSchema>;

const tags = ['connectors'];
const params = uuidParam('connectorId');

export const connectorContracts = {
  list: defineContract({
    method: 'GET',
    path: '/divisions/:divisionId/connectors',
    operationId: 'listConnectors',
    summary: "A division's connectors with their last sync (passwords never shown)",
    tags,
    permission: { action: 'read', subject: 'Connector' },
    params: uuidParam('divisionId'),
    responses: { 200: z.object({ items: z.array(connectorSchema) }) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/divisions/:divisionId/connectors',
    operationId: 'createConnector',
    summary:
      'Connects a source to a division (its address and login are tried first) and starts its first sync',
    tags,
    permission: { action: 'create', subject: 'Connector' },
    params: uuidParam('divisionId'),
    body: connectorCreateSchema,
    responses: { 201: connectorSchema },
  }),
  get: defineContract({
    method: 'GET',
    path: '/connectors/:connectorId',
    operationId: 'getConnector',
    summary: 'One connector with its last sync',
    tags,
    permission: { action: 'read', subject: 'Connector' },
    params,
    responses: { 200: connectorSchema },
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/connectors/:connectorId',
    operationId: 'updateConnector',
    summary:
      "Changes a connector's name, schedule, file types or WebDAV login (a new login is tried first); syncs again when what it reads changed",
    tags,
    permission: { action: 'update', subject: 'Connector' },
    params,
    body: connectorUpdateSchema,
    responses: { 200: connectorSchema },
  }),
  sync: defineContract({
    method: 'POST',
    path: '/connectors/:connectorId/sync',
    operationId: 'syncConnector',
    summary: 'Syncs now (CONNECTOR_SYNC_RUNNING while a sync waits or runs)',
    tags,
    permission: { action: 'update', subject: 'Connector' },
    params,
    responses: { 202: connectorSchema },
  }),
  pause: defineContract({
    method: 'POST',
    path: '/connectors/:connectorId/pause',
    operationId: 'pauseConnector',
    summary: 'Stops scheduled syncs until resumed',
    tags,
    permission: { action: 'update', subject: 'Connector' },
    params,
    responses: { 200: connectorSchema },
  }),
  resume: defineContract({
    method: 'POST',
    path: '/connectors/:connectorId/resume',
    operationId: 'resumeConnector',
    summary: 'Resumes a paused connector and syncs at once',
    tags,
    permission: { action: 'update', subject: 'Connector' },
    params,
    responses: { 200: connectorSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/connectors/:connectorId',
    operationId: 'deleteConnector',
    summary: 'Disconnects a source; its files stay in the division as files of their own',
    tags,
    permission: { action: 'delete', subject: 'Connector' },
    params,
    responses: { 204: z.null() },
  }),
};
