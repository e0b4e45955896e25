/** One e-mail the shop sent, as the customer's data export shows it (`mail_log`, pruned by TTL). */
export interface MailLogRecord {
  to: string;
  subject: string;
  text: string;
  sentAt: Date;
}

export const MAIL_LOG_COLLECTION = 'mail_log';

/** An address as the logs may show it: `***@example.co.ke` (the logs keep no e-mail addresses). */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `***${address.slice(at)}` : '***';
}
