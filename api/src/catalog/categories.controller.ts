import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { CategoriesService } from './categories.service';
import {
  CategoryData,
  CategoryListData,
  CategoryListQueryDto,
  CategoryListResponseDto,
  CategoryResponseDto,
  CreateCategoryDto,
  UpdateCategoryDto,
} from './dto/category.dto';

@ApiTags('categories')
@Controller('categories')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Every category by name, each with its productCount (page and limit are optional)',
  })
  @Answer('Categories retrieved', CategoryListResponseDto)
  async list(@Query() query: CategoryListQueryDto): Promise<CategoryListData> {
    const page = await this.categories.list(query);
    return {
      categories: page.items,
      totalCategories: page.total,
      totalPages: page.totalPages,
      page: page.page,
    };
  }

  @Get(':id')
  @Public()
  @ApiOperation({ summary: 'One category with its productCount' })
  @Answer('Category retrieved', CategoryResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@Param('id', ParseObjectIdPipe) id: string): Promise<CategoryData> {
    return { category: await this.categories.get(id) };
  }

  @Post()
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Add a category (names are unique whatever their case)' })
  @Answer('Category created successfully', CategoryResponseDto, { status: 201 })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The name is taken' })
  async create(
    @CurrentUser() actor: Principal,
    @Body() dto: CreateCategoryDto,
  ): Promise<CategoryData> {
    return { category: await this.categories.create(actor, dto) };
  }

  @Put('update/:id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Rename a category or change its description' })
  @Answer('Category updated successfully', CategoryResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The name is taken' })
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: UpdateCategoryDto,
  ): Promise<CategoryData> {
    return { category: await this.categories.update(actor, id, dto) };
  }

  @Delete('delete/:id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Delete a category that has no products' })
  @Answer('Category deleted successfully', CategoryResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The category still has products' })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<CategoryData> {
    return { category: await this.categories.remove(actor, id) };
  }
}
