/**
 * CSV as the back office's exports write it (RFC 4180: comma-separated, CRLF-free `\n` rows, a cell
 * quoted when it holds a comma, a quote or a line break, quotes doubled).
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return
 * before one) as a formula, so a customer's name such as `=HYPERLINK(...)` would run on the clerk's
 * computer. Such a text cell is neutralised with a leading apostrophe, which spreadsheets show as
 * text. Numbers are written as they are: a negative amount stays a number.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows (the first one the header) as one CSV text ending with a line break. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
