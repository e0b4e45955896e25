import { ApiProperty } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { TAX_MESSAGES, TAX_TYPES, type TaxType } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';

/** The codes as Swagger and class-validator take them (a mutable list). */
export const TAX_TYPE_ENUM: TaxType[] = [...TAX_TYPES];
const TAX_TYPE_WORDS = 'KRA eTIMS tax type: A exempt, B 16 %, C zero-rated, D non-VAT, E 8 %';

/** One of KRA's tax types. */
export class TaxTypeInfoDto {
  @ApiProperty({ enum: TAX_TYPE_ENUM, example: 'B' })
  code!: TaxType;
  @ApiProperty({ example: 'Standard rate 16 %' })
  label!: string;
  @ApiProperty({ example: 16, description: 'Percent' })
  rate!: number;
}

/** The shop's tax settings. */
export class TaxSettingsDto {
  @ApiProperty({
    enum: TAX_TYPE_ENUM,
    nullable: true,
    type: String,
    example: 'B',
    description: `${TAX_TYPE_WORDS}. A product without a tax type of its own is taxed at this one; null: none (every product must then have its own)`,
  })
  defaultTaxType!: TaxType | null;
  @ApiProperty({ type: [TaxTypeInfoDto], description: "KRA's tax types, in KRA's order" })
  taxTypes!: TaxTypeInfoDto[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  updatedAt!: string | null;
}

export class TaxSettingsData {
  @ApiProperty({ type: TaxSettingsDto })
  settings!: TaxSettingsDto;
}
export class TaxSettingsResponseDto extends Envelope(TaxSettingsData) {}

/** `PUT /api/tax/settings`. */
export class UpdateTaxSettingsDto {
  @ApiProperty({
    // null among the values too: OpenAPI 3.0 reads `nullable` beside an enum as the enum alone.
    enum: [...TAX_TYPE_ENUM, null],
    nullable: true,
    type: String,
    example: 'B',
    description: `${TAX_TYPE_WORDS}; null: no default`,
  })
  @ValidateIf((dto: UpdateTaxSettingsDto) => dto.defaultTaxType !== null)
  @IsIn(TAX_TYPE_ENUM, { message: TAX_MESSAGES.defaultTaxType })
  defaultTaxType!: TaxType | null;
}

/** A sale unit's tax. */
export class UnitTaxDto {
  @ApiProperty({ example: '665f1c2b9d3e4a00123456aa' })
  _id!: string;
  @ApiProperty({ example: 'Tray of 50' })
  name!: string;
  @ApiProperty({
    enum: TAX_TYPE_ENUM,
    nullable: true,
    type: String,
    example: null,
    description: "The unit's own tax type; null: its product's",
  })
  taxType!: TaxType | null;
  @ApiProperty({
    enum: TAX_TYPE_ENUM,
    nullable: true,
    type: String,
    example: 'B',
    description:
      "What the unit is taxed at: its own type, else its product's, else the shop's default; null when none is set",
  })
  effectiveTaxType!: TaxType | null;
}

/** A product's tax fields, for staff. */
export class ProductTaxDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345679' })
  productId!: string;
  @ApiProperty({
    enum: TAX_TYPE_ENUM,
    nullable: true,
    type: String,
    example: null,
    description: `${TAX_TYPE_WORDS}; null: the shop's default`,
  })
  taxType!: TaxType | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '5059690800',
    description: "KRA's item classification code (8 or 10 digits); null: none yet",
  })
  itemClassCode!: string | null;
  @ApiProperty({ enum: TAX_TYPE_ENUM, nullable: true, type: String, example: 'B' })
  shopDefaultTaxType!: TaxType | null;
  @ApiProperty({
    enum: TAX_TYPE_ENUM,
    nullable: true,
    type: String,
    example: 'B',
    description: "The product's own type, else the shop's default; null when neither is set",
  })
  effectiveTaxType!: TaxType | null;
  @ApiProperty({ type: [UnitTaxDto], description: 'Each sale unit, in the order sold' })
  units!: UnitTaxDto[];
}

export class ProductTaxData {
  @ApiProperty({ type: ProductTaxDto })
  tax!: ProductTaxDto;
}
export class ProductTaxResponseDto extends Envelope(ProductTaxData) {}
