import { z } from 'zod';
import {
  connectorFileTypesField,
  connectorFolderField,
  connectorIntervalField,
  endpointUrlField,
} from './connectors.contract.ts';
import { consentConnectorContracts } from './consent-connector.contract.ts';
import { requiredText, singleLineText } from './fields.ts';

/** Microsoft's identity platform and Graph: what an Entra app uses unless the operator names others. */
export const MICROSOFT_LOGIN_URL = 'https://login.microsoftonline.com';
export const MICROSOFT_GRAPH_URL = 'https://graph.microsoft.com/v1.0';

/** The operator's Entra app registration; an empty or missing `clientSecret` keeps the stored one. */
export const microsoftAppBodySchema = z.strictObject({
  clientId: requiredText(200),
  clientSecret: singleLineText(500).optional(),
  /** `organizations` (any work or school account), `common`, or one tenant's id or domain. */
  tenant: singleLineText(100)
    .pipe(z.string().regex(/^[A-Za-z0-9.-]{1,100}$/, { message: 'validation.invalid' }))
    .default('organizations'),
  loginUrl: endpointUrlField().default(MICROSOFT_LOGIN_URL),
  graphUrl: endpointUrlField().default(MICROSOFT_GRAPH_URL),
});
export type MicrosoftAppBody = z.input<typeof microsoftAppBodySchema>;

export const microsoftAppSchema = z
  .object({
    /** Whether a client id and secret are stored: without them Microsoft 365 cannot be connected. */
    configured: z.boolean(),
    clientId: z.string(),
    clientSecretSet: z.boolean(),
    tenant: z.string(),
    loginUrl: z.string(),
    graphUrl: z.string(),
    /** The redirect URI to register in the app. */
    redirectUri: z.string(),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'MicrosoftApp' });
export type MicrosoftApp = z.infer<typeof microsoftAppSchema>;

/**
 * What a data manager picks before consenting: the drive (a SharePoint document library's or a OneDrive's drive id;
 * empty: the consenting account's own OneDrive) and a folder in it.
 */
export const microsoftConsentBodySchema = z.strictObject({
  name: requiredText(120),
  driveId: singleLineText(200)
    .pipe(z.string().regex(/^[A-Za-z0-9!_-]*$/, { message: 'connectors.validation.driveId' }))
    .default(''),
  folder: connectorFolderField(),
  fileTypes: connectorFileTypesField(),
  intervalMinutes: connectorIntervalField(),
});
export type MicrosoftConsentBody = z.input<typeof microsoftConsentBodySchema>;

export const microsoftConnectorContracts = consentConnectorContracts({
  kind: 'microsoft365',
  appPath: 'microsoft-app',
  vendor: 'Microsoft',
  appSchema: microsoftAppSchema,
  appBodySchema: microsoftAppBodySchema,
  consentBodySchema: microsoftConsentBodySchema,
  summaries: {
    getApp:
      'The Entra app Microsoft 365 connectors use (its secret never shown) and the redirect URI to register',
    saveApp: 'Stores the Entra app (client id, sealed secret, tenant and endpoints)',
    consent:
      "Starts connecting a Microsoft 365 folder: the address of Microsoft's consent page (PKCE, signed state)",
    complete:
      'Ends the consent: redeems the code, tries the folder, stores the sealed refresh token and syncs',
  },
});
