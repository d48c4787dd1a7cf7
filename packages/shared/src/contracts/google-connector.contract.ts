import { z } from 'zod';
import {
  connectorFileTypesField,
  connectorFolderField,
  connectorIntervalField,
  endpointUrlField,
} from './connectors.contract.ts';
import { consentConnectorContracts } from './consent-connector.contract.ts';
import { requiredText, singleLineText } from './fields.ts';

/** Google's OAuth 2.0 endpoints and the Drive API: what a Google app uses unless the operator names others. */
export const GOOGLE_AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const GOOGLE_DRIVE_URL = 'https://www.googleapis.com/drive/v3';

/** The operator's Google Cloud OAuth client (a web application); an empty or missing `clientSecret` keeps the stored one. */
export const googleAppBodySchema = z.strictObject({
  clientId: requiredText(200),
  clientSecret: singleLineText(500).optional(),
  authUrl: endpointUrlField().default(GOOGLE_AUTH_URL),
  tokenUrl: endpointUrlField().default(GOOGLE_TOKEN_URL),
  driveUrl: endpointUrlField().default(GOOGLE_DRIVE_URL),
});
export type GoogleAppBody = z.input<typeof googleAppBodySchema>;

export const googleAppSchema = z
  .object({
    /** Whether a client id and secret are stored: without them Google Drive cannot be connected. */
    configured: z.boolean(),
    clientId: z.string(),
    clientSecretSet: z.boolean(),
    authUrl: z.string(),
    tokenUrl: z.string(),
    driveUrl: z.string(),
    /** The redirect URI to register in the app. */
    redirectUri: z.string(),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'GoogleApp' });
export type GoogleApp = z.infer<typeof googleAppSchema>;

const driveIdPattern = /^[A-Za-z0-9_-]*$/;

/**
 * What a data manager picks before consenting: a shared drive (its id; empty: the account's My Drive) and a folder in
 * it, by id (as in the folder's address, `drive.google.com/drive/folders/<id>`) or by path (empty: the drive's root).
 */
export const googleConsentBodySchema = z.strictObject({
  name: requiredText(120),
  driveId: singleLineText(200)
    .pipe(z.string().regex(driveIdPattern, { message: 'connectors.validation.driveId' }))
    .default(''),
  folderId: singleLineText(200)
    .pipe(z.string().regex(driveIdPattern, { message: 'connectors.validation.folderId' }))
    .default(''),
  folder: connectorFolderField(),
  fileTypes: connectorFileTypesField(),
  intervalMinutes: connectorIntervalField(),
});
export type GoogleConsentBody = z.input<typeof googleConsentBodySchema>;

export const googleConnectorContracts = consentConnectorContracts({
  kind: 'googledrive',
  appPath: 'google-app',
  vendor: 'Google',
  appSchema: googleAppSchema,
  appBodySchema: googleAppBodySchema,
  consentBodySchema: googleConsentBodySchema,
  summaries: {
    getApp:
      'The Google OAuth client Google Drive connectors use (its secret never shown) and the redirect URI',
    saveApp: 'Stores the Google OAuth client (client id, sealed secret and endpoints)',
    consent:
      "Starts connecting a Google Drive folder: the address of Google's consent page (PKCE, sealed state)",
    complete:
      'Ends the consent: redeems the code, finds the folder, stores the sealed refresh token and syncs',
  },
});
