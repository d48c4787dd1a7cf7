import type { z } from 'zod';
import { connectorSchema, consentCompleteBodySchema, consentStartSchema } from './connectors.contract.ts';
import { defineContract, uuidParam } from './route-contract.ts';

/** What tells one kind connected by OAuth consent from another: its names, its schemas, what its routes say. */
interface ConsentKind<App extends z.ZodType, AppBody extends z.ZodType, Consent extends z.ZodType> {
  /** The connector kind in the consent paths (`microsoft365`, `googledrive`). */
  kind: string;
  /** The app's path below `/admin` (`microsoft-app`) and the vendor in operation ids (`Microsoft`). */
  appPath: string;
  vendor: string;
  appSchema: App;
  appBodySchema: AppBody;
  consentBodySchema: Consent;
  summaries: { getApp: string; saveApp: string; consent: string; complete: string };
}

const tags = ['connectors'];

/**
 * The four routes of a kind connected by OAuth consent: the operator reads and stores the app (`Setting`), the data
 * manager starts the consent for a division and ends it with what the vendor sent back (`create Connector`).
 */
export function consentConnectorContracts<
  App extends z.ZodType,
  AppBody extends z.ZodType,
  Consent extends z.ZodType,
>(k: ConsentKind<App, AppBody, Consent>) {
  return {
    getApp: defineContract({
      method: 'GET',
      path: `/admin/${k.appPath}`,
      operationId: `get${k.vendor}App`,
      summary: k.summaries.getApp,
      tags,
      permission: { action: 'read', subject: 'Setting' },
      responses: { 200: k.appSchema },
    }),
    saveApp: defineContract({
      method: 'PUT',
      path: `/admin/${k.appPath}`,
      operationId: `save${k.vendor}App`,
      summary: k.summaries.saveApp,
      tags,
      permission: { action: 'update', subject: 'Setting' },
      body: k.appBodySchema,
      responses: { 200: k.appSchema },
    }),
    consent: defineContract({
      method: 'POST',
      path: `/divisions/:divisionId/connectors/${k.kind}/consent`,
      operationId: `start${k.vendor}Consent`,
      summary: k.summaries.consent,
      tags,
      permission: { action: 'create', subject: 'Connector' },
      params: uuidParam('divisionId'),
      body: k.consentBodySchema,
      responses: { 200: consentStartSchema },
    }),
    complete: defineContract({
      method: 'POST',
      path: `/connectors/${k.kind}/complete`,
      operationId: `complete${k.vendor}Consent`,
      summary: k.summaries.complete,
      tags,
      permission: { action: 'create', subject: 'Connector' },
      body: consentCompleteBodySchema,
      responses: { 201: connectorSchema },
    }),
  };
}
