import { csvCell } from '../reports/feedback-csv.ts';
import type { PresentedEntry } from './activity-log.service.ts';

/**
 * The export's columns: stable English names (not translated), so that a spreadsheet or script built on one export
 * keeps working with the next, whatever the language of whoever downloaded it.
 */
export const ACTIVITY_CSV_COLUMNS = [
  'createdAt',
  'action',
  'method',
  'endpoint',
  'statusCode',
  'actorEmail',
  'impersonatorEmail',
  'company',
  'companyId',
  'ip',
  'requestId',
  'changes',
] as const;

/** The first line, after a byte-order mark so that spreadsheets read umlauts right. */
export const activityCsvHeader = () => `\uFEFF${ACTIVITY_CSV_COLUMNS.join(',')}\r\n`;

/** One entry as a CSV line (CRLF); its change, if any, as JSON. */
export function activityCsvLine(e: PresentedEntry): string {
  const cells = [
    e.createdAt,
    e.action,
    e.method,
    e.endpoint,
    e.statusCode,
    e.actorEmail,
    e.impersonatorEmail,
    e.companyName,
    e.companyId,
    e.ip,
    e.requestId,
    e.changes ? JSON.stringify(e.changes) : null,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}
