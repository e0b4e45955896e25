import { singleLine } from '../common/single-line';

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
