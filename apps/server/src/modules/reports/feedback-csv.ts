import type { FeedbackReportItem } from '@werkwissen/shared';

/**
 * One CSV cell (RFC 4180: quoted when it holds a comma, quote or line break). A cell a spreadsheet would read as a
 * formula (starting with = + - @, or a tab or carriage return that some of them skip first) gets a leading single
 * quote, so that a question like "=HYPERLINK(...)" stays text (CSV formula injection).
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The export's columns: stable English names (not translated), so that a spreadsheet or script built on one export
 * keeps working with the next, whatever the language of whoever downloaded it.
 */
export const CSV_COLUMNS = [
  'createdAt',
  'company',
  'origin',
  'givenBy',
  'chat',
  'divisions',
  'question',
  'answer',
  'noAnswer',
  'liked',
  'mood',
  'rating',
  'comment',
  'tag',
  'citations',
] as const;

const citationText = (c: FeedbackReportItem['citations'][number]) =>
  `[${c.n}] ${c.fileName}${c.page === null ? '' : ` p. ${c.page}`}`;

function cells(item: FeedbackReportItem): Array<string | number | boolean | null> {
  return [
    item.createdAt,
    item.companyName,
    item.origin,
    item.givenBy,
    item.chatName,
    item.divisions.join(', '),
    item.question,
    item.answer,
    item.noAnswer,
    item.liked,
    item.mood,
    item.rating,
    item.comment,
    item.tagName,
    item.citations.map(citationText).join('; '),
  ];
}

/** The feedback as CSV: UTF-8 with a byte-order mark (so that spreadsheets read umlauts right), CRLF line ends. */
export function feedbackCsv(items: FeedbackReportItem[]): string {
  const lines = [CSV_COLUMNS.join(','), ...items.map((item) => cells(item).map(csvCell).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
