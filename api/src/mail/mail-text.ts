/** Control characters (including CR/LF, DEL, C1 controls and Unicode line separators). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** Collapses control characters to one space and trims: names and addresses are one line. */
export function singleLine(value: string): string {
  return value.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
}

/**
 * Text a customer typed, made safe to put in an e-mail the shop sends: one line, and nothing a mail
 * program turns into a link (`http://evil.example/r` becomes `http[:]//evil[.]example/r`), so the
 * shop's mail never carries a clickable address a stranger chose.
 */
export function customerText(value: string, maxLength = 200): string {
  const text = singleLine(value)
    .replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
    .replace(/\b(www)\./gi, '$1[.]')
    .replace(/([\p{L}\p{N}-])\.(?=[\p{L}\p{N}-]{2,})/gu, '$1[.]')
    .replace(/@/g, '[at]');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
