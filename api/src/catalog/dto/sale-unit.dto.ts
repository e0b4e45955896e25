import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { SALE_UNIT_LIMITS } from '@spc/shared-contracts';

export class PriceTierDto {
  @ApiProperty({ type: 'integer', minimum: 2, example: 10, description: 'From this many units up' })
  minQuantity!: number;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1350, description: 'KES for one unit' })
  price!: number;
}

/** One way a product is sold (issue 29). */
export class SaleUnitDto {
  @ApiProperty({ example: '665f1c2b9d3e4a00123456aa' })
  _id!: string;
  @ApiProperty({ example: 'Tray of 50', maxLength: SALE_UNIT_LIMITS.name })
  name!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 50,
    description: 'Seedlings one unit holds',
  })
  seedlings!: number;
  @ApiProperty({ type: 'integer', example: 1500, description: 'KES for one unit (1 and up)' })
  price!: number;
  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'KES for one unit while on offer (below price); 0: no offer',
  })
  offerPrice!: number;
  @ApiProperty({ example: 'TOM-T50', description: 'Optional stock-keeping code; empty when none' })
  sku!: string;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1, description: 'The fewest one can buy' })
  minQuantity!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 1,
    description: 'Quantities go minQuantity, minQuantity + step, …',
  })
  step!: number;
  @ApiProperty({
    type: [PriceTierDto],
    example: [
      { minQuantity: 10, price: 1350 },
      { minQuantity: 50, price: 1200 },
    ],
    description:
      'Quantity prices, each starting above the one before and cheaper. A line is priced at the tier its quantity reaches, or at the offer price when that is lower.',
  })
  tiers!: PriceTierDto[];
}

const UNITS_EXAMPLE = JSON.stringify([
  { name: 'Single seedling', seedlings: 1, minQuantity: 10, step: 10 },
  {
    name: 'Tray of 50',
    seedlings: 50,
    price: 1500,
    tiers: [
      { minQuantity: 10, price: 1350 },
      { minQuantity: 50, price: 1200 },
    ],
  },
]);

/**
 * The product form's `units`: JSON text (a multipart form carries text), checked by the service
 * against the product's merged price with the shared schema (`saleUnitsSchema`). Left out: the units
 * stay as they are (a new product: its single seedling alone).
 */
export function UnitsField() {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      example: UNITS_EXAMPLE,
      description:
        "JSON list of sale units: { _id? (keeps a unit), name, seedlings, price, offerPrice?, sku?, minQuantity?, step?, tiers?: [{ minQuantity, price }], taxType? (its own KRA tax type A–E; left out or empty: the product's) }. The first is the single seedling (seedlings 1); its price and offer are the form's price and offer. Units left out are deleted.",
    }),
    Allow(),
  );
}
