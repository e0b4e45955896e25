import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/**
 * Personal data has owners (issue 39). Every module that stores something about a person says so
 * in one provider marked `@OwnsPersonalData()`: which collections it keeps and what each holds
 * (or that it holds nothing personal), how a person's records are exported, and how they are
 * erased. The privacy module finds the owners and coordinates them; it touches no collection
 * itself. A collection that no owner declares fails the privacy scan test, so a feature added
 * later must say what it keeps.
 */

/** Whom an export or an erasure is about: found by the privacy module, passed to every owner. */
export interface DataSubject {
  /** The person's account, when they have one (or had one: an erasure runs after it closes). */
  accountId: string | null;
  /** Their orders: those the account placed, or a guest's found by the canonical phone. */
  orderIds: string[];
  purchaseNumbers: string[];
  /** Canonical phones (E.164, `+2547…`) that name them. */
  phones: string[];
  /** Folded (trimmed, lower-case) e-mail addresses that name them. */
  emails: string[];
  /** The names they gave (the account's, those typed on their orders), to replace in texts. */
  names: string[];
  /**
   * Other records about them that texts may refer to (a guest's data requests; the organisation an
   * account buys for, whose entries in the trail may quote them: the shop's reasons).
   */
  otherIds: string[];
  /**
   * Addresses proven to be theirs: the phone a guest proved with an SMS code (an account's e-mail
   * is not: nothing verifies it at sign-up). Only these find records by address alone (a message to the shop, a text to a number, a
   * payment from a number): anyone can type anyone's e-mail or phone on their own order, and an
   * erasure must never reach another person's records through it.
   */
  proven: { emails: string[]; phones: string[] };
}

/** Why a person's records lose them. */
export type ErasureReason = 'account-deleted' | 'admin-deleted' | 'guest-request' | 'retention';

/** What a collection holds of people; `NO_PERSONAL_DATA` when nothing. */
export type CollectionDeclaration = string;
export const NO_PERSONAL_DATA = '';

export interface PersonalDataOwner {
  /** Every collection this owner keeps, with what it holds of people ('' = nothing). */
  readonly collections: Record<string, CollectionDeclaration>;
  /**
   * The person's records, as sections of their export (`{ orders: [...] }`). Only what belongs to
   * them, without staff names, internal keys or secrets.
   */
  export?(subject: DataSubject): Promise<Record<string, unknown>>;
  /** Removes the person from the owner's records: entries and figures stay, the person goes. */
  erase?(subject: DataSubject, reason: ErasureReason): Promise<void>;
}

/** Marks a provider as the owner of personal data in its module's collections. */
export const OwnsPersonalData = DiscoveryService.createDecorator<void>();

/**
 * The privacy module's erasure of an account, as the users module reaches it (through this token,
 * at call time: privacy builds on users, so users cannot import it).
 */
export const ACCOUNT_ERASURE = Symbol('AccountErasure');
export interface AccountErasure<User> {
  eraseAccount(user: User, reason: 'account-deleted' | 'admin-deleted'): Promise<number>;
}

/** What an erased person is shown as wherever a name stood. */
export const ANONYMOUS_NAME = 'Deleted customer';

/** The spellings a Kenyan phone (+2547…) may have been typed with: +254…, 254…, 07…, 7…. */
export function phoneSpellings(msisdn: string): string[] {
  if (!/^\+254\d{9}$/.test(msisdn)) return [msisdn];
  const local = msisdn.slice(4);
  return [msisdn, msisdn.slice(1), `0${local}`, local];
}

/**
 * A text a person typed, as the trail may quote it (an M-Pesa account reference): phone numbers
 * and e-mail addresses in it are replaced, so the trail names nobody an erasure cannot find.
 */
export function maskContacts(text: string): string {
  return text.replace(/\S+@\S+/g, '[e-mail]').replace(/\+?\d[\d\s.-]{5,}\d/g, '[phone]');
}

/** A phone as the trail shows it: its last three digits (`•••678`). */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length > 3 ? `•••${digits.slice(-3)}` : '•••';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces the person's names, e-mails and phones (in any spelling: `0781 354 880` too) in a text
 * with `ANONYMOUS_NAME`, for texts that mention them (an audit message, a stock movement's note).
 */
export function scrubText(text: string, subject: DataSubject): string {
  let out = text;
  const words = [...subject.names, ...subject.emails]
    .map((w) => w.trim())
    .filter((w) => w.length >= 2)
    .sort((a, b) => b.length - a.length);
  // Whole words only: a name "Al" leaves "cancelled" alone.
  for (const word of words)
    out = out.replace(
      new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'giu'),
      ANONYMOUS_NAME,
    );
  for (const phone of subject.phones) {
    const local = phone.startsWith('+254') ? phone.slice(4) : phone.replace(/^\+/, '');
    // The national digits with any blanks, dashes or dots between them, after +254, 254 or 0.
    const digits = [...local].map(escapeRegExp).join('[\\s.-]*');
    out = out.replace(
      new RegExp(`(?<!\\d)(?:\\+?254[\\s.-]*|0)?${digits}(?!\\d)`, 'g'),
      ANONYMOUS_NAME,
    );
  }
  return out;
}

/**
 * A provider declaring collections that hold nothing about people (products, zones, counters keyed
 * by hashes…), for a module's `providers`: the privacy scan knows them as declared.
 */
export function holdsNoPersonalData(...names: string[]): new () => PersonalDataOwner {
  @Injectable()
  @OwnsPersonalData()
  class NoPersonalData implements PersonalDataOwner {
    readonly collections = Object.fromEntries(names.map((n) => [n, NO_PERSONAL_DATA]));
  }
  Object.defineProperty(NoPersonalData, 'name', { value: `NoPersonalData(${names.join(',')})` });
  return NoPersonalData;
}
