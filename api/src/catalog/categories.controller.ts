import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { CategoriesService } from './categories.service';
import {
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
  @ApiOkResponse({ type: CategoryListResponseDto })
  async list(@Query() query: CategoryListQueryDto): Promise<CategoryListResponseDto> {
    const page = await this.categories.list(query);
    return {
      success: true,
      message: 'Categories retrieved',
      categories: page.items,
      totalCategories: page.total,
      totalPages: page.totalPages,
      page: page.page,
    };
  }

  @Get(':id')
  @Public()
  @ApiOperation({ summary: 'One category with its productCount' })
  @ApiOkResponse({ type: CategoryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@Param('id', ParseObjectIdPipe) id: string): Promise<CategoryResponseDto> {
    return {
      success: true,
      message: 'Category retrieved',
      category: await this.categories.get(id),
    };
  }

  @Post()
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Add a category (names are unique whatever their case)' })
  @ApiCreatedResponse({ type: CategoryResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The name is taken' })
  async create(
    @CurrentUser() actor: Principal,
    @Body() dto: CreateCategoryDto,
  ): Promise<CategoryResponseDto> {
    return {
      success: true,
      message: 'Category created successfully',
      category: await this.categories.create(actor, dto),
    };
  }

  @Put('update/:id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Rename a category or change its description' })
  @ApiOkResponse({ type: CategoryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The name is taken' })
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: UpdateCategoryDto,
  ): Promise<CategoryResponseDto> {
    return {
      success: true,
      message: 'Category updated successfully',
      category: await this.categories.update(actor, id, dto),
    };
  }

  @Delete('delete/:id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Delete a category that has no products' })
  @ApiOkResponse({ type: CategoryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The category still has products' })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<CategoryResponseDto> {
    return {
      success: true,
      message: 'Category deleted successfully',
      category: await this.categories.remove(actor, id),
    };
  }
}
