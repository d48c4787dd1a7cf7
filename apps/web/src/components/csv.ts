/**
 * RFC 4180 CSV separated by semicolons, with a BOM: German Excel opens it in columns with its umlauts, and the
 * imports read it back (they take comma, semicolon or tab). Quotes what needs it.
 */
export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    // A leading =, +, - or @ would run as a formula in spreadsheets: prefix it.
    const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
    return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return `\uFEFF${[header, ...rows].map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`;
}

/** Builds a CSV file in the browser and hands it to the user as a download. */
export function downloadCsv(
  fileName: string,
  header: string[],
  rows: Array<Array<string | number | null>>,
): void {
  const url = URL.createObjectURL(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }));
  Object.assign(document.createElement('a'), { href: url, download: fileName }).click();
  URL.revokeObjectURL(url);
}
