import { createHash, timingSafeEqual } from 'node:crypto';
import { NotFoundException } from '@nestjs/common';
import type { SmsConfig } from '../config/sms-config';

const hash = (value: string) => createHash('sha256').update(value).digest();

/**
 * May this post be heard as the SMS gateway's? The secret token in its path must be the shop's
 * (compared in constant time, whatever its length): 404 if not, or if SMS is off, as for a path
 * that does not exist.
 */
export function checkSmsGatewayCaller(settings: SmsConfig | null, token: string): void {
  if (!settings || !timingSafeEqual(hash(token), hash(settings.inboundToken)))
    throw new NotFoundException();
}
