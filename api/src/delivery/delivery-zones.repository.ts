import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { DeliveryZone } from './schemas/delivery-zone.schema';

export interface DeliveryZoneRecord {
  _id: string;
  name: string;
  areas: { county: string; subCounty?: string }[];
  restOfKenya: boolean;
  fee: number;
  days: number;
  createdAt: string;
  updatedAt: string;
}

export type ZoneWrite = Pick<
  DeliveryZone,
  'name' | 'nameKey' | 'areas' | 'restOfKenya' | 'areaKeys' | 'fee' | 'days'
>;

type LeanZone = DeliveryZone & { _id: { toString(): string } };

function toRecord(doc: LeanZone): DeliveryZoneRecord {
  return {
    _id: doc._id.toString(),
    name: doc.name,
    areas: (doc.areas ?? []).map((a) =>
      a.subCounty ? { county: a.county, subCounty: a.subCounty } : { county: a.county },
    ),
    restOfKenya: doc.restOfKenya ?? false,
    fee: doc.fee,
    days: doc.days,
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
  };
}

type ZoneTerms = { name: string; fee: number; days: number; areaKeys: string[] }[];

/**
 * How long an order's delivery quote may use the zones as read before: this process's own zone
 * writes show at once; another instance's within this time. Placing an order read the zones every
 * time, one database round trip per order for a collection that changes a few times a year.
 */
export const ZONE_TERMS_TTL_MS = 5_000;

/** The only place that touches the delivery_zones collection; returns plain records. */
@Injectable()
export class DeliveryZonesRepository {
  private cached?: { terms: ZoneTerms; at: number };
  /** Bumped by every write here: terms read across a write are not kept. */
  private generation = 0;

  constructor(@InjectModel(DeliveryZone.name) private readonly zones: Model<DeliveryZone>) {}

  async all(): Promise<DeliveryZoneRecord[]> {
    const docs = await this.zones.find().sort({ nameKey: 1 }).lean<LeanZone[]>();
    return docs.map(toRecord);
  }

  async findById(id: string): Promise<DeliveryZoneRecord | null> {
    const doc = await this.zones.findById(id).lean<LeanZone>();
    return doc ? toRecord(doc) : null;
  }

  /**
   * Every zone's terms and covered place keys, for matching an order's place: one small read (a
   * shop has a handful of zones), which also says whether the shop has set any.
   */
  async terms(): Promise<ZoneTerms> {
    if (this.cached && Date.now() - this.cached.at < ZONE_TERMS_TTL_MS) return this.cached.terms;
    const generation = this.generation;
    const at = Date.now();
    const terms = await this.zones
      .find({}, { _id: 0, name: 1, fee: 1, days: 1, areaKeys: 1 })
      .lean<ZoneTerms>();
    if (generation === this.generation) this.cached = { terms, at };
    return terms;
  }

  /**
   * A zone write: the kept terms go before it (a read under way is not kept) and after it (a read
   * made meanwhile may predate it), so the next quote reads the zones again.
   */
  private async write<T>(operation: () => Promise<T>): Promise<T> {
    const changed = () => {
      this.generation += 1;
      this.cached = undefined;
    };
    changed();
    try {
      return await operation();
    } finally {
      changed();
    }
  }

  /** Inserts a zone; a name or place another zone already has fails with a duplicate-key error. */
  async insert(zone: ZoneWrite): Promise<DeliveryZoneRecord> {
    const doc = await this.write(() => this.zones.create(zone));
    return toRecord(doc.toObject() as LeanZone);
  }

  /** Replaces a zone's terms in one update (the unique keys refuse a clash); null when it is gone. */
  async replace(id: string, zone: ZoneWrite): Promise<DeliveryZoneRecord | null> {
    const doc = await this.write(() =>
      this.zones
        .findByIdAndUpdate(id, { $set: zone }, { new: true, runValidators: true })
        .lean<LeanZone>()
        .exec(),
    );
    return doc ? toRecord(doc) : null;
  }

  async remove(id: string): Promise<DeliveryZoneRecord | null> {
    const doc = await this.write(() => this.zones.findByIdAndDelete(id).lean<LeanZone>().exec());
    return doc ? toRecord(doc) : null;
  }
}
