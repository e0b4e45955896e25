/**
 * CSV as the back office's exports write it (RFC 4180: comma-separated, CRLF-free `\n` rows, a cell
 * quoted when it holds a comma, a quote or a line break, quotes doubled).
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return
 * before one) as a formula, so a customer's name such as `=HYPERLINK(...)` would run on the clerk's
 * computer. Such a text cell is neutralised with a leading apostrophe, which spreadsheets show as
 * text. Numbers are written as they are: a negative amount stays a number.
 *
 * Excel in locales whose list separator is `;` (much of Europe, and any laptop set so) splits a
 * comma-separated file on semicolons, so `a;=1+1` becomes two cells, the second a formula. A
 * formula start after a semicolon, a comma or a tab inside a cell (blanks and quotes in between
 * included) gets the same apostrophe: `a;'=1+1`.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
/** A separator some spreadsheet may split on, then (after blanks or quotes) a formula start. */
const FORMULA_AFTER_SEPARATOR = /([;,\t][\s"]*)(?=[=+\-@])/g;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = value.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  const text = FORMULA_START.test(inner) ? `'${inner}` : inner;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows (the first one the header) as one CSV text ending with a line break. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
