import { BadRequestException } from '@nestjs/common';
import { Types } from 'mongoose';
import { SALE_UNIT_MESSAGES, saleUnitsSchema, type SaleUnit } from '@spc/shared-contracts';

/**
 * A product form's `units` (JSON text in the multipart form, or a list) checked with the shared
 * schema against the product's merged price and offer: 400 with every problem, nothing changed.
 * A unit sent with `_id` keeps that id and must be one of `current`; the first (the single seedling)
 * keeps the product's own id; a new unit gets a fresh id. Units left out are deleted (orders placed
 * with them keep their prices and names as placed). A unit's `taxType` left out or empty is none
 * (its product's applies), like every other field of a unit sent.
 */
export function readUnits(
  sent: unknown,
  product: { id: string; price: number; onOffer: boolean; offerPrice: number },
  current: SaleUnit[],
): SaleUnit[] {
  let value = sent;
  if (typeof sent === 'string') {
    try {
      value = JSON.parse(sent);
    } catch {
      throw invalid([{ field: 'units', messages: [SALE_UNIT_MESSAGES.unitsInvalid] }]);
    }
  }
  const parsed = saleUnitsSchema(product.price, product.onOffer ? product.offerPrice : 0).safeParse(
    value,
  );
  if (!parsed.success) {
    const byField = new Map<string, string[]>();
    for (const issue of parsed.error.issues) {
      const field = ['units', ...issue.path.map(String)].join('.');
      byField.set(field, [...(byField.get(field) ?? []), issue.message]);
    }
    throw invalid([...byField].map(([field, messages]) => ({ field, messages })));
  }
  const known = new Set(current.map((u) => u._id));
  return parsed.data.map((unit, index) => {
    if (unit._id && !known.has(unit._id)) {
      throw invalid([{ field: `units.${index}._id`, messages: [SALE_UNIT_MESSAGES.unitId] }]);
    }
    const _id =
      index === 0 ? product.id : unit._id && unit._id !== product.id ? unit._id : newUnitId();
    return {
      _id,
      name: unit.name,
      seedlings: unit.seedlings,
      price: unit.price,
      offerPrice: unit.offerPrice,
      sku: unit.sku,
      minQuantity: unit.minQuantity,
      step: unit.step,
      tiers: unit.tiers.map((t) => ({ minQuantity: t.minQuantity, price: t.price })),
      // Stored only when the unit has a type of its own.
      ...(unit.taxType ? { taxType: unit.taxType } : {}),
    };
  });
}

function newUnitId(): string {
  return new Types.ObjectId().toString();
}

function invalid(errors: { field: string; messages: string[] }[]): BadRequestException {
  return new BadRequestException({
    message: errors[0]?.messages[0] ?? SALE_UNIT_MESSAGES.unitsInvalid,
    code: 'VALIDATION_FAILED',
    errors,
  });
}

/** A short text of the units for the audit trail ("Tray of 50 (50) KES 1,500; …"). */
export function unitsSummary(units: SaleUnit[]): string {
  return units
    .map(
      (u) =>
        `${u.name} (${u.seedlings}) KES ${u.price}` +
        (u.tiers.length
          ? ` [${u.tiers.map((t) => `${t.minQuantity}+ ${t.price}`).join(', ')}]`
          : ''),
    )
    .join('; ');
}
