import { BadRequestException, Controller, Delete, Get, Param, Put, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { SITE_PICTURE_FIELD, SITE_PICTURE_SLOTS } from '@spc/shared-contracts';
import { Answer, said, type Answered } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { readMultipartForm } from '../common/multipart';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  SitePictureDto,
  SitePicturesData,
  SitePicturesResponseDto,
  SitePictureUploadDto,
} from './dto/site-picture.dto';
import { SitePicturesService } from './site-pictures.service';

const SLOT_LIST = SITE_PICTURE_SLOTS.join(', ');

@ApiTags('site-pictures')
@ApiExtraModels(SitePictureDto)
@Controller('site-pictures')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class SitePicturesController {
  constructor(private readonly pictures: SitePicturesService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: "The shop's own photos for the storefront; a place not listed shows its drawing",
  })
  @Answer('Site pictures retrieved', SitePicturesResponseDto)
  async list(): Promise<SitePicturesData> {
    return { pictures: await this.pictures.all() };
  }

  @Put(':slot')
  @Auth('admin')
  @RateLimit('uploads')
  @ApiOperation({
    summary: `Upload the shop's own picture for a place (${SLOT_LIST}); JPEG, PNG or WebP by content, at most 5 MB, stored as WebP`,
  })
  @ApiParam({ name: 'slot', enum: SITE_PICTURE_SLOTS, description: 'The place on the shop' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: SitePictureUploadDto })
  @Answer('Site picture updated', SitePicturesResponseDto)
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'Not a readable image, or too many pixels',
  })
  async put(
    @CurrentUser() actor: Principal,
    @Param('slot') slotParam: string,
    @Req() request: FastifyRequest,
  ): Promise<SitePicturesData> {
    const slot = this.pictures.slot(slotParam);
    const { fields, file } = await readMultipartForm(request);
    if (file && file.fieldname !== SITE_PICTURE_FIELD) {
      throw new BadRequestException(
        `Unexpected file field "${file.fieldname.slice(0, 40)}": send the image as ${SITE_PICTURE_FIELD}`,
      );
    }
    const unknown = Object.keys(fields).find((name) => name !== 'video');
    if (unknown !== undefined) {
      throw new BadRequestException(`property ${unknown.slice(0, 40)} should not exist`);
    }
    if (!file || file.buffer.length === 0)
      throw new BadRequestException('Choose a picture to upload');
    await this.pictures.put(actor, slot, file.buffer, fields.video);
    return { pictures: await this.pictures.all() };
  }

  @Delete(':slot')
  @Auth('admin')
  @ApiOperation({ summary: "Remove the shop's picture for a place: its drawing shows again" })
  @ApiParam({ name: 'slot', enum: SITE_PICTURE_SLOTS, description: 'The place on the shop' })
  @Answer('Site picture removed; the drawing shows again', SitePicturesResponseDto)
  async remove(
    @CurrentUser() actor: Principal,
    @Param('slot') slotParam: string,
  ): Promise<Answered<SitePicturesData>> {
    const slot = this.pictures.slot(slotParam);
    const removed = await this.pictures.remove(actor, slot);
    const data = { pictures: await this.pictures.all() };
    return removed ? data : said('This place already shows its drawing', data);
  }
}
