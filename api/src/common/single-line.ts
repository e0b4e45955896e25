/** Control characters (including CR/LF, DEL, C1 controls and Unicode line separators). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** Collapses control characters to one space and trims: names and addresses are one line. */
export function singleLine(value: string): string {
  return value.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
}
