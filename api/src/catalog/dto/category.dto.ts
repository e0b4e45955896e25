import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { CATALOG_LIMITS, VALIDATION_MESSAGES as M } from '@spc/shared-contracts';
import { PageQueryDto } from '../../common/pagination';
import { Envelope } from '../../common/answer';
import { TextField } from './catalog-fields';

/** A product's category as products carry it. */
export class CategoryRefDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'Fruits' })
  name!: string;
}

/** A category as every endpoint shows it. */
export class CategoryDto extends CategoryRefDto {
  @ApiProperty({ example: 'Grafted and tissue-culture fruit trees, ready to plant' })
  description!: string;
  @ApiProperty({ example: 86, description: 'Products in this category' })
  productCount!: number;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class CategoryData {
  @ApiProperty({ type: CategoryDto })
  category!: CategoryDto;
}

export class CategoryResponseDto extends Envelope(CategoryData) {}

export class CategoryListData {
  @ApiProperty({ type: [CategoryDto], description: 'Sorted by name' })
  categories!: CategoryDto[];
  @ApiProperty({ example: 5 })
  totalCategories!: number;
  @ApiProperty({ example: 1, description: '1 when no limit is asked for (0 when there are none)' })
  totalPages!: number;
  @ApiProperty({ example: 1 })
  page!: number;
}

export class CategoryListResponseDto extends Envelope(CategoryListData) {}

/** `GET /api/categories`: every category unless a `limit` is given; `search` narrows them. */
export class CategoryListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Part of the name or description, any case, taken literally',
    maxLength: CATALOG_LIMITS.searchMaxLength,
  })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsOptional()
  @MaxLength(CATALOG_LIMITS.searchMaxLength, {
    message: `search must be at most ${CATALOG_LIMITS.searchMaxLength} characters`,
  })
  @IsString({ message: 'search must be text' }) // nearest the property: checked, and said, first
  search?: string;
}

export class CreateCategoryDto {
  @TextField(CATALOG_LIMITS.categoryName, M.categoryRequired, 'Category name', 'Fruits')
  name!: string;

  @TextField(
    CATALOG_LIMITS.categoryDescription,
    M.descriptionRequired,
    'Description',
    'Grafted and tissue-culture fruit trees, ready to plant',
  )
  description!: string;
}

/** `PUT /api/categories/update/:id`: the fields sent are replaced; one left out stays as it is. */
export class UpdateCategoryDto {
  @TextField(CATALOG_LIMITS.categoryName, M.categoryRequired, 'Category name', 'Fruits', {
    optional: true,
  })
  name?: string;

  @TextField(
    CATALOG_LIMITS.categoryDescription,
    M.descriptionRequired,
    'Description',
    'Fruit trees',
    {
      optional: true,
    },
  )
  description?: string;
}
