import { createHmac, timingSafeEqual } from 'node:crypto';
import { GoneException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  ORDER_DOCUMENT_LINK_DAYS,
  ORDER_DOCUMENT_MESSAGES,
  type OrderDocument,
} from '@spc/shared-contracts';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

const DAY_S = 24 * 60 * 60;

/**
 * Signed, expiring links to an order's documents, for the e-mail a customer opens on a phone with
 * no session: an HMAC-SHA256 of the document, the order id and the expiry (seconds since 1970) under
 * a key derived from the server's access-token secret. Anyone holding the link can open that one
 * document of that one order until it expires; changing any part of it breaks the signature.
 */
@Injectable()
export class OrderDocumentLinks {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    // A key of its own, so a signature here can never be mistaken for a token's.
    this.key = createHmac('sha256', config.jwt.accessSecret)
      .update('order-document-links')
      .digest();
  }

  /** The signature of this document of this order, valid until `expires` (seconds). */
  sign(orderId: string, document: OrderDocument, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`${document}\n${orderId.toLowerCase()}\n${expires}`)
      .digest('base64url');
  }

  /** `expires` and `signature` for a link that works for `days` from `now`. */
  params(
    orderId: string,
    document: OrderDocument,
    now = new Date(),
    days = ORDER_DOCUMENT_LINK_DAYS,
  ): { expires: number; signature: string } {
    const expires = Math.floor(now.getTime() / 1000) + days * DAY_S;
    return { expires, signature: this.sign(orderId, document, expires) };
  }

  /**
   * The storefront page the e-mail links to; it fetches the PDF from the API with the same
   * parameters (the shop's web address is the one a customer knows; the API may live elsewhere).
   */
  storefrontUrl(orderId: string, document: OrderDocument, now = new Date()): string {
    const { expires, signature } = this.params(orderId, document, now);
    const query = new URLSearchParams({ expires: String(expires), signature });
    return `${this.config.storefrontUrl}/orders/${orderId}/${document}?${query.toString()}`;
  }

  /**
   * Checks a link: a wrong signature (tampered, or for another order or document) is a 404, a
   * right one past its expiry a 410; both say so in words.
   */
  verify(
    orderId: string,
    document: OrderDocument,
    expires: string | undefined,
    signature: string | undefined,
    now = new Date(),
  ): void {
    const invalid = () =>
      new NotFoundException({ message: ORDER_DOCUMENT_MESSAGES.linkInvalid, code: 'NOT_FOUND' });
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) throw invalid();
    const expected = Buffer.from(this.sign(orderId, document, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    if (Number(expires) * 1000 < now.getTime())
      throw new GoneException({
        message: ORDER_DOCUMENT_MESSAGES.linkExpired,
        code: 'LINK_EXPIRED',
      });
  }
}
