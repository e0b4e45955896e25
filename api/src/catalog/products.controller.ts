import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { RateLimit } from '../common/rate-limit';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import {
  ApplyOfferDto,
  CreateProductDto,
  CreateProductFormDto,
  ProductData,
  ProductListQueryDto,
  ProductListResponseDto,
  ProductResponseDto,
  UpdateProductDto,
  UpdateProductFormDto,
  UpdateStockDto,
} from './dto/product.dto';
import { ProductTaxData, ProductTaxResponseDto } from './dto/tax.dto';
import { CatalogReadModel } from './read-model/catalog-read-model';
import { readProductForm } from './product-form';
import { ProductsService } from './products.service';

const IMAGE_RULES = 'image: JPEG, PNG or WebP by content, at most 5 MB, stored as WebP';

@ApiTags('products')
@Controller('products')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly readModel: CatalogReadModel,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary:
      'Products, 12 a page, newest first or by effective price; filter by text, category and ' +
      'effective price (inclusive). Also every category with its count, per-category totals ' +
      'under the other filters, and the price range of the catalogue',
  })
  @ApiOkResponse({ type: ProductListResponseDto })
  async list(
    @Query() query: ProductListQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const answer = await this.readModel.list(query);
    this.readModel.prepare(request.url, answer);
    return this.readModel.sendList(reply, answer);
  }

  @Get(':id')
  @Public()
  @ApiOperation({ summary: 'One product, its category populated' })
  @ApiOkResponse({ type: ProductResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(
    @Param('id', ParseObjectIdPipe) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    return this.readModel.sendProduct(reply, await this.products.get(id));
  }

  @Get(':id/tax')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      "A product's KRA tax type and item classification code, the shop's default tax type, and the tax type each sale unit has of its own and is taxed at",
  })
  @Answer('Product tax retrieved', ProductTaxResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async tax(@Param('id', ParseObjectIdPipe) id: string): Promise<ProductTaxData> {
    return { tax: await this.products.tax(id) };
  }

  @Post()
  @Auth('admin', 'staff')
  @RateLimit('uploads')
  @ApiOperation({ summary: `Add a product (multipart form; ${IMAGE_RULES})` })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: CreateProductFormDto })
  @Answer('Product created successfully', ProductResponseDto, { status: 201 })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Unreadable image' })
  async create(
    @CurrentUser() actor: Principal,
    @Req() request: FastifyRequest,
  ): Promise<ProductData> {
    const form = await readProductForm(request, CreateProductDto);
    return { product: await this.products.create(actor, form.fields, form.image) };
  }

  @Put('update/:id')
  @Auth('admin', 'staff')
  @RateLimit('uploads')
  @ApiOperation({
    summary: `Update a product (multipart form; fields left out stay; ${IMAGE_RULES})`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UpdateProductFormDto })
  @Answer('Product updated successfully', ProductResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Changed by someone else meanwhile' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Unreadable image' })
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Req() request: FastifyRequest,
  ): Promise<ProductData> {
    const form = await readProductForm(request, UpdateProductDto);
    return { product: await this.products.update(actor, id, form.fields, form.image) };
  }

  @Patch('check-stock/:id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Mark a product out of stock (quantity 0)' })
  @Answer('Product marked out of stock', ProductResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async markOutOfStock(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<ProductData> {
    return { product: await this.products.markOutOfStock(actor, id) };
  }

  @Patch('update-stock/:id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Mark a product in stock with this quantity (more than 0)' })
  @Answer('Product stock updated', ProductResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async restock(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: UpdateStockDto,
  ): Promise<ProductData> {
    return { product: await this.products.restock(actor, id, dto.productQuantity) };
  }

  @Patch('apply-offer/:id')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary: 'Put a product on offer at this price (below its price); remove an offer by update',
  })
  @Answer('Offer applied successfully', ProductResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async applyOffer(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: ApplyOfferDto,
  ): Promise<ProductData> {
    return { product: await this.products.applyOffer(actor, id, dto.offerPrice) };
  }

  @Delete('delete/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Delete a product and its images (past orders keep their copy)' })
  @Answer('Product deleted successfully', ProductResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<ProductData> {
    return { product: await this.products.remove(actor, id) };
  }
}
