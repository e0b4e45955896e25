import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsMongoId,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  INVOICING_MODES,
  ORGANISATION_LIMITS as L,
  ORGANISATION_MESSAGES as OM,
  type InvoicingMode,
} from '@spc/shared-contracts';

const lower = Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value));

/** `PUT /api/organisations/:id/terms` (admins). */
export class OrganisationTermsDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: L.paymentDaysMax, example: 30 })
  @IsInt({ message: OM.paymentDays })
  @Min(0, { message: OM.paymentDays })
  @Max(L.paymentDaysMax, { message: OM.paymentDays })
  paymentDays!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: L.creditLimitMax,
    example: 500_000,
    description: 'Whole KES it may owe at once',
  })
  @IsInt({ message: OM.creditLimit })
  @Min(0, { message: OM.creditLimit })
  @Max(L.creditLimitMax, { message: OM.creditLimit })
  creditLimit!: number;

  @ApiProperty({ description: 'May order on account (pay on its terms)' })
  @IsBoolean({ message: OM.onAccount })
  onAccount!: boolean;

  @ApiPropertyOptional({
    enum: INVOICING_MODES,
    example: 'perTranche',
    description:
      'How it is invoiced: one invoice per tranche delivered, or one for the whole order; absent keeps what it is',
  })
  // Left out keeps it; null is no mode (400), as the document says.
  @ValidateIf((o: { invoicing?: unknown }) => o.invoicing !== undefined)
  @IsIn(INVOICING_MODES, { message: OM.invoicing })
  invoicing?: InvoicingMode;
}

/** The terms as an organisation shows them (every field set). */
export class OrganisationTermsViewDto {
  @ApiProperty({ type: 'integer', example: 30, description: 'Days after the invoice it pays in' })
  paymentDays!: number;

  @ApiProperty({ type: 'integer', example: 500_000, description: 'Whole KES it may owe at once' })
  creditLimit!: number;

  @ApiProperty({ description: 'May order on account (pay on its terms)' })
  onAccount!: boolean;

  @ApiProperty({
    enum: INVOICING_MODES,
    example: 'perTranche',
    description: 'One invoice per tranche delivered, or one for the whole order',
  })
  invoicing!: InvoicingMode;
}

/** One negotiated price: whole KES for one unit of a product. */
export class PriceListEntryDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  @lower
  @IsMongoId({ message: 'productId must be the id of a product' })
  productId!: string;

  @ApiProperty({
    example: '665f1c2b9d3e4a0012345678',
    description: "One of the product's sale units (the single seedling's id is the product's)",
  })
  @lower
  @IsMongoId({ message: 'unitId must be the id of one of its units' })
  unitId!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: L.priceMax, example: 1200 })
  @IsInt({ message: OM.price })
  @Min(0, { message: OM.price })
  @Max(L.priceMax, { message: OM.price })
  price!: number;
}

/** `PUT /api/organisations/:id/price-list` (admins): replaces the whole list. */
export class PriceListDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100,
    example: 10,
    description: "Whole percent off the shop's price for what `prices` does not name (0: none)",
  })
  @IsInt({ message: OM.discount })
  @Min(0, { message: OM.discount })
  @Max(100, { message: OM.discount })
  discountPercent!: number;

  @ApiProperty({ type: [PriceListEntryDto], maxItems: L.priceListEntries })
  @IsArray({ message: 'prices must be a list' })
  @ArrayMaxSize(L.priceListEntries, { message: OM.priceListTooLong })
  @ValidateNested({ each: true })
  @Type(() => PriceListEntryDto)
  prices!: PriceListEntryDto[];
}
