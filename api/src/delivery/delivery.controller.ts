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
import { DeliveryService } from './delivery.service';
import {
  DeliveryOptionsData,
  DeliveryOptionsQueryDto,
  DeliveryOptionsResponseDto,
  DeliveryZoneData,
  DeliveryZoneInputDto,
  DeliveryZoneListData,
  DeliveryZoneListResponseDto,
  DeliveryZoneResponseDto,
} from './dto/delivery.dto';

@ApiTags('delivery')
@Controller('delivery')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class DeliveryController {
  constructor(private readonly delivery: DeliveryService) {}

  @Get('options')
  @Public()
  @ApiOperation({
    summary:
      'The delivery choices for a county (and sub-county): delivery with its fee and expected date, and free collection at the nursery',
  })
  @Answer('Delivery options retrieved', DeliveryOptionsResponseDto)
  async options(@Query() query: DeliveryOptionsQueryDto): Promise<DeliveryOptionsData> {
    return { options: await this.delivery.options(query.county, query.subCounty) };
  }

  @Get('zones')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Every delivery zone, and the terms where none applies' })
  @Answer('Delivery zones retrieved', DeliveryZoneListResponseDto)
  list(): Promise<DeliveryZoneListData> {
    return this.delivery.list();
  }

  @Post('zones')
  @Auth('admin')
  @ApiOperation({ summary: 'Create a delivery zone (a place can be in one zone only)' })
  @Answer('Delivery zone created', DeliveryZoneResponseDto, { status: 201 })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Name or place already in a zone' })
  async create(
    @CurrentUser() actor: Principal,
    @Body() dto: DeliveryZoneInputDto,
  ): Promise<DeliveryZoneData> {
    return { zone: await this.delivery.create(actor, dto) };
  }

  @Put('zones/:id')
  @Auth('admin')
  @ApiOperation({ summary: "Replace a delivery zone's name, places, fee and days" })
  @Answer('Delivery zone updated', DeliveryZoneResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Name or place already in a zone' })
  async replace(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: DeliveryZoneInputDto,
  ): Promise<DeliveryZoneData> {
    return { zone: await this.delivery.replace(actor, id, dto) };
  }

  @Delete('zones/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'Delete a delivery zone (orders already placed keep their fee)' })
  @Answer('Delivery zone deleted', DeliveryZoneResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<DeliveryZoneData> {
    return { zone: await this.delivery.remove(actor, id) };
  }
}
