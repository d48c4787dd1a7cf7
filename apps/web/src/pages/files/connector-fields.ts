/** The schedules offered for a connector, in minutes (`connectors.intervals.<n>`). */
export const CONNECTOR_INTERVALS = ['15', '60', '360', '1440'];

/** The file types typed as "pdf, docx" (the server drops dots and upper case). */
export const fileTypesOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
