import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenException, NotFoundException, type Logger } from '@nestjs/common';
import type { MpesaConfig } from '../config/mpesa-config';

const hash = (value: string) => createHash('sha256').update(value).digest();

/**
 * May this request be heard as Daraja's? The secret token in its path must be the shop's (404 if
 * not, or if M-Pesa is off), and with MPESA_CALLBACK_ALLOWED_IPS set the address must be one of
 * Safaricom's (403). Every Daraja callback (STK, C2B, results) passes here.
 */
export function checkDarajaCaller(
  settings: MpesaConfig | null,
  token: string,
  ip: string,
  logger: Logger,
): MpesaConfig {
  if (!settings || !timingSafeEqual(hash(token), hash(settings.callbackToken)))
    throw new NotFoundException();
  if (settings.callbackAllowedIps.length && !settings.callbackAllowedIps.includes(ip)) {
    logger.warn(`Refused an M-Pesa callback from ${ip}`);
    throw new ForbiddenException('This address may not send M-Pesa callbacks');
  }
  return settings;
}
