import { z } from './zod';
import { ESTIMATED_DELIVERY_DAYS, SHIPPING_FEE_KES } from './constants';
import { formatMoney } from './format';

/** How an order reaches the shopper: delivered by the shop's courier, or collected at the nursery. */
export const DELIVERY_METHODS = ['delivery', 'collection'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** Bounds of a delivery zone the back office can set (fees in whole KES). */
export const DELIVERY_ZONE_LIMITS = {
  nameMax: 60,
  feeMax: 50_000,
  daysMin: 0,
  daysMax: 60,
  areasMax: 200,
} as const;

/**
 * What applies where the shop has set no zone: all of Kenya at KES 0 in 3 days (the spec's fixed
 * shipping). Once the shop has zones, a place none covers gets the same terms as "Rest of Kenya",
 * unless the shop sets its own zone for the rest of Kenya.
 */
export const DEFAULT_DELIVERY_ZONE = {
  name: 'All of Kenya',
  restName: 'Rest of Kenya',
  fee: SHIPPING_FEE_KES,
  days: ESTIMATED_DELIVERY_DAYS,
} as const;

/** Collection at the nursery: free, ready after a day, at the shop's address in its opening hours. */
export const NURSERY_COLLECTION = {
  name: 'Collect at the nursery',
  fee: 0,
  days: 1,
  address: 'Seedling Propagation Centre, Kiambu, Kenya',
  openingHours: 'Monday to Saturday, 8:00 am to 5:00 pm',
} as const;

export const DELIVERY_MESSAGES = {
  nameRequired: 'Zone name is required',
  nameMax: `Zone name must be at most ${DELIVERY_ZONE_LIMITS.nameMax} characters`,
  feeWhole: 'Fee must be whole shillings',
  feeRange: `Fee must be between KES 0 and KES ${DELIVERY_ZONE_LIMITS.feeMax.toLocaleString('en-US')}`,
  daysWhole: 'Days must be a whole number',
  daysRange: `Days must be between ${DELIVERY_ZONE_LIMITS.daysMin} and ${DELIVERY_ZONE_LIMITS.daysMax}`,
  areasRequired:
    'Choose at least one county or sub-county, or make it the zone for the rest of Kenya',
  areasMax: `A zone covers at most ${DELIVERY_ZONE_LIMITS.areasMax} places`,
  methodInvalid: `Delivery method must be one of ${DELIVERY_METHODS.join(', ')}`,
} as const;

/** One place a zone covers: a whole county, or one sub-county of it. */
export interface DeliveryArea {
  county: string;
  subCounty?: string;
}

/** Label of an area as the back office shows it: "Nairobi" or "Nairobi / Westlands". */
export function areaLabel(area: DeliveryArea): string {
  return area.subCounty ? `${area.county} / ${area.subCounty}` : area.county;
}

/** The back office's zone form; the API checks the same bounds and the places against the data. */
export const deliveryZoneFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, DELIVERY_MESSAGES.nameRequired)
      .max(DELIVERY_ZONE_LIMITS.nameMax, DELIVERY_MESSAGES.nameMax),
    fee: z
      .number({ message: DELIVERY_MESSAGES.feeWhole })
      .int(DELIVERY_MESSAGES.feeWhole)
      .min(0, DELIVERY_MESSAGES.feeRange)
      .max(DELIVERY_ZONE_LIMITS.feeMax, DELIVERY_MESSAGES.feeRange),
    days: z
      .number({ message: DELIVERY_MESSAGES.daysWhole })
      .int(DELIVERY_MESSAGES.daysWhole)
      .min(DELIVERY_ZONE_LIMITS.daysMin, DELIVERY_MESSAGES.daysRange)
      .max(DELIVERY_ZONE_LIMITS.daysMax, DELIVERY_MESSAGES.daysRange),
    restOfKenya: z.boolean(),
    areas: z
      .array(z.object({ county: z.string().min(1), subCounty: z.string().optional() }))
      .max(DELIVERY_ZONE_LIMITS.areasMax, DELIVERY_MESSAGES.areasMax),
  })
  .refine((v) => v.restOfKenya || v.areas.length > 0, {
    message: DELIVERY_MESSAGES.areasRequired,
    path: ['areas'],
  });

export type DeliveryZoneForm = z.infer<typeof deliveryZoneFormSchema>;

/** The delivery part of an order, as the WhatsApp message, the e-mail and My Orders show it. */
export interface OrderDeliveryView {
  method: DeliveryMethod;
  zoneName: string;
  days: number;
}

/** "Delivery (Nairobi): KES 300" or "Collect at the nursery: free". */
export function deliveryLine(delivery: OrderDeliveryView, shippingFee: number): string {
  if (delivery.method === 'collection') return `${NURSERY_COLLECTION.name}: free`;
  return `Delivery (${delivery.zoneName}): ${formatMoney(shippingFee)}`;
}
