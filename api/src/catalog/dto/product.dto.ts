import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  AVAILABILITY_FILTERS,
  CATALOG_LIMITS,
  OBJECT_ID_PATTERN,
  OFFER_MODAL_RULE,
  OFFER_PRICE_RULE,
  PRICE_RULE,
  QUANTITY_RULE,
  RESTOCK_QUANTITY_RULE,
  VALIDATION_MESSAGES as M,
  type AvailabilityFilter,
  type TaxType,
} from '@spc/shared-contracts';
import { PageQueryDto } from '../../common/pagination';
import { Envelope } from '../../common/answer';
import {
  CategoryIdField,
  ItemClassCodeField,
  OfferPriceField,
  OnOfferField,
  QueryWholeNumber,
  TaxTypeField,
  TextField,
  WholeNumberField,
} from './catalog-fields';
import { CategoryDto, CategoryRefDto } from './category.dto';
import { SaleUnitDto, UnitsField } from './sale-unit.dto';

/** A growing batch of the product shoppers can book (issue 32). */
export class BookableBatchRefDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345699' })
  _id!: string;
  @ApiProperty({ example: '2027-03-12', description: 'Ready day (YYYY-MM-DD)' })
  readyOn!: string;
  @ApiProperty({ type: 'integer', example: 450, description: 'Seedlings left to book' })
  available!: number;
}

/** A product as every endpoint shows it. Prices are whole KES. */
export class ProductDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345679' })
  _id!: string;
  @ApiProperty({ example: 'Hass Avocado Grafted Seedling in 2 L Bag' })
  productName!: string;
  @ApiProperty({ example: 'Grafted on a hardy rootstock; starts fruiting in about 3 years.' })
  productDescription!: string;
  @ApiProperty({ type: 'integer', example: 350 })
  price!: number;
  @ApiProperty({ type: 'integer', example: 350, description: 'Always equal to price' })
  initialPrice!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Below price while onOffer; else 0' })
  offerPrice!: number;
  @ApiProperty({ example: false })
  onOffer!: boolean;
  @ApiProperty({
    type: 'integer',
    example: 350,
    description: 'offerPrice when onOffer, else price: what a buyer pays, filters and sorts use',
  })
  effectivePrice!: number;
  @ApiProperty({ type: 'integer', example: 40, description: 'In stock; 0 is out of stock' })
  productQuantity!: number;
  @ApiProperty({
    type: [SaleUnitDto],
    description:
      'How the product is sold. The first unit is the single seedling: its price and offerPrice are price and the offer above. Stock (productQuantity) is counted in seedlings.',
  })
  units!: SaleUnitDto[];
  @ApiProperty({
    type: 'integer',
    example: 12,
    description:
      'The lowest price of one seedling any unit, tier or offer reaches, whole KES rounded up: a card\'s "from KES …"',
  })
  fromPrice!: number;
  @ApiProperty({ type: CategoryRefDto })
  category!: CategoryRefDto;
  @ApiProperty({
    example: '/api/uploads/products/665f1c2b9d3e4a0012345679/3f2a9c1e0b7d4a55-640.webp',
    description: 'URL path of the 640 px WebP image, or empty',
  })
  productImage!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: {
      '320': '/api/uploads/products/665f1c2b9d3e4a0012345679/3f2a9c1e0b7d4a55-320.webp',
      '640': '/api/uploads/products/665f1c2b9d3e4a0012345679/3f2a9c1e0b7d4a55-640.webp',
    },
    description: 'URL per image width, for srcset',
  })
  productImages!: Record<string, string>;
  @ApiProperty({
    type: [BookableBatchRefDto],
    description:
      'Growing batches shoppers can book, soonest first (at most 3): ready on a day, seedlings left to book',
  })
  batches!: BookableBatchRefDto[];
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class ProductData {
  @ApiProperty({ type: ProductDto })
  product!: ProductDto;
}

export class ProductResponseDto extends Envelope(ProductData) {}

export class PriceRangeDto {
  @ApiProperty({ type: 'integer', example: 20 })
  min!: number;
  @ApiProperty({ type: 'integer', example: 3500 })
  max!: number;
}

export class ProductListData {
  @ApiProperty({ type: [ProductDto] })
  products!: ProductDto[];
  @ApiProperty({ type: [CategoryDto], description: 'Every category with its productCount' })
  categories!: CategoryDto[];
  @ApiProperty({ example: 412, description: 'Products in the whole catalogue' })
  totalProducts!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { '665f1c2b9d3e4a0012345678': 86 },
    description:
      'Per category id: products matching the search and price filters (not the category one)',
  })
  totalsPerCategory!: Record<string, number>;
  @ApiProperty({ example: 3, description: 'ceil(totalFilteredProducts / limit); 0 when none' })
  totalPages!: number;
  @ApiProperty({ example: 31, description: 'Products matching every filter' })
  totalFilteredProducts!: number;
  @ApiProperty({ example: 1 })
  page!: number;
  @ApiProperty({ example: 12 })
  limit!: number;
  @ApiProperty({
    type: PriceRangeDto,
    description: 'Lowest and highest effective price in the catalogue ({0, 0} when empty)',
  })
  priceRange!: PriceRangeDto;
}

export class ProductListResponseDto extends Envelope(ProductListData) {}

const emptyIsAbsent = Transform(({ value }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value,
);
const trimmedLower = Transform(({ value }) =>
  typeof value === 'string' ? value.trim().toLowerCase() || undefined : value,
);

/** `GET /api/products`: 12 a page unless a limit is given; newest first unless sorted by price. */
export class ProductListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Part of the name or description, any case, taken literally',
    maxLength: CATALOG_LIMITS.searchMaxLength,
  })
  @emptyIsAbsent
  @IsOptional()
  @MaxLength(CATALOG_LIMITS.searchMaxLength, {
    message: `search must be at most ${CATALOG_LIMITS.searchMaxLength} characters`,
  })
  @IsString({ message: 'search must be text' }) // nearest the property: checked, and said, first
  search?: string;

  @ApiPropertyOptional({
    description: 'Same as search (the storefront sends name)',
    maxLength: CATALOG_LIMITS.searchMaxLength,
  })
  @emptyIsAbsent
  @IsOptional()
  @MaxLength(CATALOG_LIMITS.searchMaxLength, {
    message: `name must be at most ${CATALOG_LIMITS.searchMaxLength} characters`,
  })
  @IsString({ message: 'name must be text' }) // nearest the property: checked, and said, first
  name?: string;

  @ApiPropertyOptional({
    description: 'A category id (empty: every category)',
    pattern: '^([0-9a-fA-F]{24})?$',
  })
  @emptyIsAbsent
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, { message: 'category must be a category id' })
  @IsString({ message: 'category must be a category id' })
  category?: string;

  @QueryWholeNumber('minPrice', 'Lowest effective price in KES, inclusive')
  minPrice?: number;

  @QueryWholeNumber('maxPrice', 'Highest effective price in KES, inclusive')
  maxPrice?: number;

  @ApiPropertyOptional({
    enum: ['price', 'createdAt'],
    description: 'price sorts by the effective price; default createdAt (newest first)',
  })
  @trimmedLower
  @IsOptional()
  @IsIn(['price', 'createdat'], { message: 'sortBy must be price or createdAt' })
  sortBy?: string;

  @ApiPropertyOptional({
    enum: ['asc', 'desc'],
    description: 'Default asc for price, desc for createdAt',
  })
  @trimmedLower
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'sortOrder must be asc or desc' })
  sortOrder?: 'asc' | 'desc';

  @ApiPropertyOptional({
    enum: AVAILABILITY_FILTERS,
    description:
      'now: ready stock now; long-rains / short-rains: a bookable batch ready for the coming season (GET /api/bookings/settings)',
  })
  @trimmedLower
  @IsOptional()
  @IsIn(AVAILABILITY_FILTERS, {
    message: `availability must be one of: ${AVAILABILITY_FILTERS.join(', ')}`,
  })
  availability?: AvailabilityFilter;
}

/** `POST /api/products` (multipart/form-data text fields). */
export class CreateProductDto {
  @TextField(
    CATALOG_LIMITS.productName,
    M.productNameRequired,
    'Product Name',
    'Hass Avocado Grafted Seedling',
  )
  productName!: string;

  @TextField(
    CATALOG_LIMITS.productDescription,
    M.descriptionRequired,
    'Description',
    'Grafted on a hardy rootstock; starts fruiting in about 3 years.',
  )
  productDescription!: string;

  @WholeNumberField(PRICE_RULE, 350, { description: 'Whole KES' })
  price!: number;

  @ApiPropertyOptional({
    type: 'integer',
    example: 350,
    description: 'Accepted for the old clients and ignored: kept equal to price',
  })
  @IsOptional()
  initialPrice?: unknown;

  @WholeNumberField(QUANTITY_RULE, 40)
  productQuantity!: number;

  @CategoryIdField(M.categoryRequired)
  category!: string;

  @OnOfferField()
  onOffer?: boolean;

  @OfferPriceField(OFFER_PRICE_RULE, (dto) => dto.onOffer === true)
  offerPrice?: number;

  @UnitsField()
  units?: unknown;

  @TaxTypeField()
  taxType?: TaxType | null;

  @ItemClassCodeField()
  itemClassCode?: string | null;
}

/**
 * `PUT /api/products/update/:id` (multipart/form-data): the back office sends the whole form; a
 * field left out stays as it is. Setting `onOffer` to false removes the offer.
 */
export class UpdateProductDto {
  @TextField(
    CATALOG_LIMITS.productName,
    M.productNameRequired,
    'Product Name',
    'Hass Avocado Grafted Seedling',
    {
      optional: true,
    },
  )
  productName?: string;

  @TextField(
    CATALOG_LIMITS.productDescription,
    M.descriptionRequired,
    'Description',
    'Grafted seedling',
    {
      optional: true,
    },
  )
  productDescription?: string;

  @WholeNumberField(PRICE_RULE, 350, { optional: true, description: 'Whole KES' })
  price?: number;

  @ApiPropertyOptional({
    type: 'integer',
    example: 350,
    description: 'Accepted for the old clients and ignored: kept equal to price',
  })
  @IsOptional()
  initialPrice?: unknown;

  @WholeNumberField(QUANTITY_RULE, 40, { optional: true })
  productQuantity?: number;

  @CategoryIdField(M.categoryRequired, { optional: true })
  category?: string;

  @OnOfferField()
  onOffer?: boolean;

  // Checked when sent (unless the offer is being removed); the service checks the merged offer
  // against the merged price, so `onOffer: true` alone keeps the offer price already stored.
  @OfferPriceField(OFFER_PRICE_RULE, (dto) => dto.offerPrice !== undefined && dto.onOffer !== false)
  offerPrice?: number;

  @UnitsField()
  units?: unknown;

  @TaxTypeField()
  taxType?: TaxType | null;

  @ItemClassCodeField()
  itemClassCode?: string | null;
}

/** How the multipart form is documented: the text fields plus the optional image file. */
export class CreateProductFormDto extends CreateProductDto {
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'JPEG, PNG or WebP (checked by content), at most 5 MB; stored as WebP',
  })
  productImage?: unknown;
}

export class UpdateProductFormDto extends UpdateProductDto {
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'A new image replaces the old one; leave it out to keep the current image',
  })
  productImage?: unknown;
}

/** `PATCH /api/products/update-stock/:id`. */
export class UpdateStockDto {
  @WholeNumberField(RESTOCK_QUANTITY_RULE, 25, { description: 'The new stock count, more than 0' })
  productQuantity!: number;
}

/** `PATCH /api/products/apply-offer/:id`. */
export class ApplyOfferDto {
  @WholeNumberField(OFFER_MODAL_RULE, 300, { description: 'Whole KES, below the price' })
  offerPrice!: number;
}
