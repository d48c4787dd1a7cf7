/**
 * The web pages a provider sends the browser back to after consent (register each as its app's redirect URI), apart
 * from the connectors' contracts: the route manifest, which every first load carries, imports these without zod.
 */
export const GOOGLE_CALLBACK_PATH = '/connectors/googledrive/callback';
export const MICROSOFT_CALLBACK_PATH = '/connectors/microsoft365/callback';
