import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  OwnsPersonalData,
  type DataSubject,
  type ErasureReason,
  type PersonalDataOwner,
} from '../common/personal-data';

/** A collection as declared by its owner. */
export interface DeclaredCollection {
  owner: string;
  /** What it holds of people; '' when nothing. */
  holds: string;
}

/**
 * The owners of personal data (providers marked `@OwnsPersonalData()` in every module), found at
 * start-up. An export asks each owner for its sections; an erasure asks each to forget the person.
 * This module reads and writes no collection of theirs.
 */
@Injectable()
export class PersonalDataOwners implements OnModuleInit {
  private readonly logger = new Logger('PersonalData');
  private owners: PersonalDataOwner[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.owners = this.discovery
      .getProviders({ metadataKey: OwnsPersonalData.KEY })
      .map((wrapper) => wrapper.instance as PersonalDataOwner | undefined)
      .filter((owner): owner is PersonalDataOwner => !!owner?.collections);
  }

  /** Every collection an owner declared, by name (the privacy scan test compares the database). */
  declared(): Map<string, DeclaredCollection> {
    const out = new Map<string, DeclaredCollection>();
    for (const owner of this.owners)
      for (const [name, holds] of Object.entries(owner.collections))
        out.set(name, { owner: owner.constructor.name, holds });
    return out;
  }

  /** The owners' sections of a person's export, merged (lists of one name concatenated). */
  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const merged: Record<string, unknown> = {};
    for (const owner of this.owners) {
      if (!owner.export) continue;
      for (const [section, value] of Object.entries(await owner.export(subject))) {
        const before = merged[section];
        merged[section] =
          Array.isArray(before) && Array.isArray(value) ? [...before, ...value] : value;
      }
    }
    return merged;
  }

  /**
   * Every owner forgets the person. Each owner's erasure is idempotent, so a failure part-way is
   * answered with an error and the whole erasure can simply be asked again.
   */
  async erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    for (const owner of this.owners) await owner.erase?.(subject, reason);
    this.logger.log(
      `Erased a person (${reason}): ${subject.orderIds.length} order(s) kept without their contacts`,
    );
  }
}
