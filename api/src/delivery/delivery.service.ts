import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  areaLabel,
  DEFAULT_DELIVERY_ZONE,
  DELIVERY_MESSAGES,
  NURSERY_COLLECTION,
  type DeliveryArea,
  type DeliveryMethod,
} from '@spc/shared-contracts';
import { findCounty, findSubCounty } from '@spc/shared-contracts/locations';
import { AuditService } from '../audit/audit.service';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Principal } from '../common/principal';
import { countyProblem, subCountyProblem } from '../locations/place-fields';
import {
  DeliveryZonesRepository,
  type DeliveryZoneRecord,
  type ZoneWrite,
} from './delivery-zones.repository';
import type { DeliveryOptionDto, DeliveryZoneInputDto } from './dto/delivery.dto';
import { areaKey, REST_OF_KENYA_KEY } from './schemas/delivery-zone.schema';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A 400 in the validation pipe's shape, naming the field. */
const placeError = (field: string, message: string) =>
  new BadRequestException({
    message,
    code: 'VALIDATION_FAILED',
    errors: [{ field, messages: [message] }],
  });

/** What an order is charged and promised for its delivery, computed by the server alone. */
export interface DeliveryQuote {
  method: DeliveryMethod;
  zoneName: string;
  fee: number;
  days: number;
  estimatedDeliveryDate: Date;
}

/**
 * Delivery zones and the fee of a place. A place is matched by the most specific rule: a zone that
 * names its sub-county, else a zone that names its whole county, else the shop's rest-of-Kenya
 * zone, else the built-in terms (KES 0 in 3 days). Two zones never cover the same place: the
 * database's unique key on each covered place refuses the second, so the match is never ambiguous.
 */
@Injectable()
export class DeliveryService {
  constructor(
    private readonly zones: DeliveryZonesRepository,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<{
    zones: DeliveryZoneRecord[];
    fallback: { name: string; fee: number; days: number };
  }> {
    const zones = await this.zones.all();
    return { zones, fallback: this.fallback(zones.length > 0) };
  }

  async create(actor: Principal, dto: DeliveryZoneInputDto): Promise<DeliveryZoneRecord> {
    const write = this.normalise(dto);
    await this.checkClashes(write);
    const zone = await this.clashSafe(write, () => this.zones.insert(write));
    await this.audit.record(
      actor,
      'delivery-zone.create',
      `${actor.fullName} created delivery zone ${zone.name} (${this.terms(zone)})`,
      this.target(zone),
    );
    return zone;
  }

  async replace(
    actor: Principal,
    id: string,
    dto: DeliveryZoneInputDto,
  ): Promise<DeliveryZoneRecord> {
    const before = await this.mustFind(id);
    const write = this.normalise(dto);
    await this.checkClashes(write, id);
    const zone = await this.clashSafe(write, () => this.zones.replace(id, write));
    if (!zone) throw new NotFoundException('No delivery zone with this id');
    await this.audit.record(
      actor,
      'delivery-zone.update',
      `${actor.fullName} changed delivery zone ${before.name} (${this.terms(before)}) to ${zone.name} (${this.terms(zone)})`,
      this.target(zone),
    );
    return zone;
  }

  async remove(actor: Principal, id: string): Promise<DeliveryZoneRecord> {
    const zone = await this.zones.remove(id);
    if (!zone) throw new NotFoundException('No delivery zone with this id');
    await this.audit.record(
      actor,
      'delivery-zone.delete',
      `${actor.fullName} deleted delivery zone ${zone.name} (${this.terms(zone)})`,
      this.target(zone),
    );
    return zone;
  }

  /** The choices a shopper has for this place: delivery with its fee and date, and collection. */
  async options(
    county: string,
    subCounty?: string,
    now = new Date(),
  ): Promise<DeliveryOptionDto[]> {
    const place = this.checkPlace(county, subCounty);
    const quotes = await Promise.all(
      (['delivery', 'collection'] as const).map((m) =>
        this.quote(m, place.county, place.subCounty, now),
      ),
    );
    return quotes.map((q) => ({
      method: q.method,
      zoneName: q.zoneName,
      fee: q.fee,
      days: q.days,
      estimatedDeliveryDate: q.estimatedDeliveryDate.toISOString(),
      ...(q.method === 'collection'
        ? { address: NURSERY_COLLECTION.address, openingHours: NURSERY_COLLECTION.openingHours }
        : {}),
    }));
  }

  /**
   * The fee, zone and date for an order to this place (the order's own figures; whatever fee a
   * client sends is never used). The place is read with the location list's spelling; one the list
   * does not know is a 400, never charged as the rest of Kenya.
   */
  async quote(
    method: DeliveryMethod,
    county: string,
    subCounty: string | undefined,
    now = new Date(),
  ): Promise<DeliveryQuote> {
    const at = (days: number) => new Date(now.getTime() + days * DAY_MS);
    if (method === 'collection') {
      return {
        method,
        zoneName: NURSERY_COLLECTION.name,
        fee: NURSERY_COLLECTION.fee,
        days: NURSERY_COLLECTION.days,
        estimatedDeliveryDate: at(NURSERY_COLLECTION.days),
      };
    }
    const place = this.checkPlace(county, subCounty);
    const keys = [REST_OF_KENYA_KEY, areaKey(place.county, null)];
    if (place.subCounty) keys.unshift(areaKey(place.county, place.subCounty));
    const zones = await this.zones.terms();
    const zone = keys
      .map((k) => zones.find((z) => z.areaKeys.includes(k)))
      .find((z) => z !== undefined);
    const terms = zone ?? this.fallback(zones.length > 0);
    return {
      method,
      zoneName: terms.name,
      fee: terms.fee,
      days: terms.days,
      estimatedDeliveryDate: at(terms.days),
    };
  }

  private fallback(shopHasZones: boolean) {
    return {
      name: shopHasZones ? DEFAULT_DELIVERY_ZONE.restName : DEFAULT_DELIVERY_ZONE.name,
      fee: DEFAULT_DELIVERY_ZONE.fee,
      days: DEFAULT_DELIVERY_ZONE.days,
    };
  }

  /** A place the location data knows, with its spelling there, or a 400 naming what is wrong. */
  checkPlace(county: string, subCounty?: string, field = 'county'): DeliveryArea {
    const countyError = countyProblem(county);
    if (countyError) throw placeError(field, countyError);
    const c = findCounty(county)!;
    if (!subCounty?.trim()) return { county: c.name };
    const subError = subCountyProblem(subCounty, county);
    if (subError) throw placeError(field.replace(/county$/, 'subCounty'), subError);
    return { county: c.name, subCounty: findSubCounty(c, subCounty)!.name };
  }

  private normalise(dto: DeliveryZoneInputDto): ZoneWrite {
    const restOfKenya = dto.restOfKenya ?? false;
    if (!restOfKenya && dto.areas.length === 0)
      throw new BadRequestException(DELIVERY_MESSAGES.areasRequired);
    const areas = dto.areas.map((a, i) =>
      this.checkPlace(a.county, a.subCounty, `areas.${i}.county`),
    );
    const keys = new Map<string, DeliveryArea>();
    for (const area of areas) {
      const key = areaKey(area.county, area.subCounty);
      if (keys.has(key)) throw new BadRequestException(`${areaLabel(area)} is listed twice`);
      keys.set(key, area);
    }
    for (const area of areas) {
      if (area.subCounty && keys.has(areaKey(area.county, null))) {
        throw new BadRequestException(
          `${areaLabel(area)} is already covered by the whole of ${area.county} in this zone`,
        );
      }
    }
    const name = dto.name.trim();
    return {
      name,
      nameKey: name.toLowerCase(),
      areas: areas.map((a) => ({ county: a.county, subCounty: a.subCounty ?? null })),
      restOfKenya,
      areaKeys: [...keys.keys(), ...(restOfKenya ? [REST_OF_KENYA_KEY] : [])],
      fee: dto.fee,
      days: dto.days,
    };
  }

  /** Names the zone that already has this name or covers one of these places (409). */
  private async checkClashes(write: ZoneWrite, exceptId?: string): Promise<void> {
    const others = (await this.zones.all()).filter((z) => z._id !== exceptId);
    const sameName = others.find((z) => z.name.toLowerCase() === write.nameKey);
    if (sameName)
      throw new ConflictException(`A delivery zone named ${sameName.name} already exists`);
    if (write.restOfKenya) {
      const rest = others.find((z) => z.restOfKenya);
      if (rest)
        throw new ConflictException(
          `${rest.name} already covers the rest of Kenya; only one zone can`,
        );
    }
    for (const area of write.areas) {
      const key = areaKey(area.county, area.subCounty);
      const other = others.find((z) => z.areas.some((a) => areaKey(a.county, a.subCounty) === key));
      if (other) {
        throw new ConflictException(
          `${areaLabel({ county: area.county, subCounty: area.subCounty ?? undefined })} is already in zone ${other.name}; a place can be in one zone only`,
        );
      }
    }
  }

  /** A clash that slipped past the check (two admins at once) still ends as a 409, not a 500. */
  private async clashSafe<T>(write: ZoneWrite, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        throw new ConflictException(
          `Another delivery zone already has the name ${write.name} or one of its places; reload and try again`,
        );
      }
      throw error;
    }
  }

  private async mustFind(id: string): Promise<DeliveryZoneRecord> {
    const zone = await this.zones.findById(id);
    if (!zone) throw new NotFoundException('No delivery zone with this id');
    return zone;
  }

  private terms(zone: DeliveryZoneRecord): string {
    const where = [
      ...zone.areas.map(areaLabel),
      ...(zone.restOfKenya ? [DEFAULT_DELIVERY_ZONE.restName] : []),
    ].join(', ');
    return `KES ${zone.fee.toLocaleString('en-US')}, ${zone.days} days, ${where}`;
  }

  private target(zone: DeliveryZoneRecord) {
    return { type: 'delivery-zone', id: zone._id, label: zone.name };
  }
}
